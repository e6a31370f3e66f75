// Colours for the players, from their names ("white", "blue", "first", ...).

const NAMED = {
  white: "#fafafa", black: "#1c1c1c", blue: "#1f5fbf", red: "#c8102e",
  yellow: "#f2c500", green: "#2e8b57", orange: "#e8731a", purple: "#7b3fe4",
};
const PALETTE = ["#1f5fbf", "#c8102e"];

export function playerColour(name, index) {
  return NAMED[(name || "").toLowerCase()] || PALETTE[index % 2];
}

// A colour that shows on the board for a ghost of the player's next move.
export function ghostColour(name, index) {
  const colour = playerColour(name, index);
  return colour === "#fafafa" ? "#ffffff" : colour;
}

export function swatch(element, name, index) {
  element.style.background = playerColour(name, index);
  element.title = name;
}
