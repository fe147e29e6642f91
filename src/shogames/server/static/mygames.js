// "My games": the games this browser played, each with its seats' links (which carry their secret
// tokens), kept in localStorage so that a person who closes the tab can always return to their seat.
// Nothing of it goes to the server.

const KEY = "shogames:my-games";
const KEEP = 50; // the newest games kept

export function myGames() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(games) ? games : [];
  } catch {
    return [];
  }
}

function save(games) {
  try {
    localStorage.setItem(KEY, JSON.stringify(games.slice(0, KEEP)));
  } catch {
    // Storage full or switched off: the list is a convenience, the game goes on.
  }
}

// Remember a game and links to seats: `links` is [{label, link}] (absolute or site-relative).
export function rememberLinks(id, game, name, links, extra = {}) {
  const games = myGames();
  const old = games.find((entry) => entry.id === id);
  const merged = new Map((old?.links ?? []).map((entry) => [entry.link, entry]));
  for (const entry of links) merged.set(entry.link, entry);
  const entry = { ...(old ?? {}), id, game, name, links: [...merged.values()], saved: new Date().toISOString(), ...extra };
  save([entry, ...games.filter((other) => other.id !== id)]);
}

// From the game page: the seats whose tokens this page holds, and how the game stands.
export function rememberGame(snap, seats) {
  const base = `/game/${snap.id}`;
  const links = [...seats].map(([seat, token]) => ({
    label: `${snap.game.players[seat]} (${snap.seats[seat]?.name ?? ""})`,
    link: `${base}#token=${token}`,
  }));
  if (seats.size > 1) links.unshift({ label: "every seat on this screen", link: `${base}#token=${[...seats.values()].join(",")}` });
  const status = snap.status === "active" ? "in progress" : snap.result_text;
  rememberLinks(snap.id, snap.game.id, snap.game.name, links, { status });
}

export function forgetGame(id) {
  save(myGames().filter((entry) => entry.id !== id));
}
