// Helpers shared by the board renderers (each game's static/renderer.js).

// Text made safe to put inside SVG markup, in element content or in an attribute.
export function esc(text) {
  return String(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
