// Move and end-of-game sounds, made with the Web Audio API (no audio files), and the switch that mutes
// them. The choice is remembered in localStorage ("shogames:sound": "on" or "off"; on by default).

const KEY = "shogames:sound";
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

// A short tone (or a few in a row): frequency in Hz, start and length in seconds after now.
function tone(audio, frequency, start, length, volume) {
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.type = "triangle";
  oscillator.frequency.value = frequency;
  const at = audio.currentTime + start;
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(at);
  oscillator.stop(at + length + 0.02);
}

// Play "move" (a soft click) or "end" (two falling notes) unless muted; returns whether a sound played.
export function playSound(kind) {
  if (!soundOn()) return false;
  const Audio = window.AudioContext ?? window.webkitAudioContext;
  if (!Audio) return false;
  context ??= new Audio();
  if (context.state === "suspended") context.resume().catch(() => {});
  if (kind === "end") {
    tone(context, 660, 0, 0.18, 0.18);
    tone(context, 440, 0.16, 0.32, 0.18);
  } else {
    tone(context, 520, 0, 0.07, 0.22);
  }
  return true;
}
