// focus.js — where the keyboard's focus goes on the table page, so a keyboard user never has to
// hunt for it and never acts on what lies behind an overlay:
//   - holdFocus(box) / releaseFocus(box, choices): an overlay (the reveal, the grid of bids)
//     is modal while it is open: every other child of <body> is inert (marked data-held-inert;
//     #toast stays clickable), Tab and Shift+Tab go round the overlay's own controls, and when
//     it closes the focus goes back to the control that opened it (or another the page
//     names), never to <body>. Overlays may stack: the newest one holds the page.
//   - focusTurn(target): the start of my turn puts the focus on its first control, unless the
//     person is typing (chat, the bid field) or an overlay or dialog is open.

const stack = []; // [{box, opener}], the newest last

/** A control the focus may go to now: in the page, shown, enabled and not behind an overlay. */
export function usable(node) {
  return (
    node instanceof HTMLElement &&
    node !== document.body &&
    node.isConnected &&
    !node.disabled &&
    !node.closest("[inert]") &&
    node.checkVisibility()
  );
}

/** The controls Tab stops at inside `box`, in order. */
function stops(box) {
  const all = box.querySelectorAll("button, [href], input, select, textarea, [tabindex]");
  return [...all].filter((node) => node.tabIndex >= 0 && usable(node));
}

function applyInert() {
  const top = stack[stack.length - 1]?.box;
  for (const node of document.body.children) {
    // A modal <dialog> open meanwhile (the player's) is over the overlay: it stays usable.
    const free = node === top || node.id === "toast" || node.tagName === "SCRIPT" || node.matches("dialog[open]");
    const hold = !!top && !free;
    if (hold && !node.inert) {
      node.inert = true;
      node.dataset.heldInert = "";
    } else if (!hold && "heldInert" in node.dataset) {
      node.inert = false;
      delete node.dataset.heldInert;
    }
  }
}

/** `box` (a child of <body>) was just shown: the page behind it is inert until it is released. */
export function holdFocus(box) {
  if (stack.some((held) => held.box === box)) return;
  const active = document.activeElement;
  stack.push({ box, opener: active instanceof HTMLElement && active !== document.body ? active : null });
  applyInert();
}

/** `box` was just hidden: the page comes back, and the focus, if it was inside the box (or is
 * lost), goes to the first usable of `choices(opener)`: by default the control that opened the
 * box. A page gives its own order (the reveal opens by itself: my turn's controls first). */
export function releaseFocus(box, choices = (opener) => [opener]) {
  const at = stack.findIndex((held) => held.box === box);
  if (at < 0) return;
  const [{ opener }] = stack.splice(at, 1);
  applyInert();
  const active = document.activeElement;
  const lost = !active || active === document.body || box.contains(active) || !usable(active);
  if (lost && !stack.length) choices(opener).find(usable)?.focus({ preventScroll: true });
}

/** Is an overlay of ours, or a modal <dialog>, open? */
export function overlayOpen() {
  return stack.length > 0 || !!document.querySelector("dialog[open]");
}

/** Is the person typing in `node` (a text field, a select, editable text)? */
export function typingIn(node) {
  return (
    node instanceof HTMLElement &&
    (node.isContentEditable || node.matches("input:not([type=checkbox]):not([type=radio]), textarea, select"))
  );
}

/** The start of my turn: the focus goes to `target` unless the person is typing or an overlay
 * is open. True when it moved. */
export function focusTurn(target) {
  if (!usable(target) || typingIn(document.activeElement) || overlayOpen()) return false;
  // The page stays where the person left it: the turn's controls are laid out to be in view,
  // and a turn met on loading the page comes while its layout still moves (a scroll then
  // would stay, hiding the top of the page).
  target.focus({ preventScroll: true });
  return true;
}

// Tab and Shift+Tab go round the newest overlay's controls (the rest is inert: without this the
// focus would leave the page for the browser's own bar).
document.addEventListener("keydown", (event) => {
  const top = stack[stack.length - 1];
  if (event.key !== "Tab" || !top || document.activeElement?.closest("dialog[open]")) return;
  const inside = stops(top.box);
  event.preventDefault();
  if (!inside.length) return;
  const at = inside.indexOf(document.activeElement);
  const next = event.shiftKey ? (at <= 0 ? inside.length - 1 : at - 1) : at < 0 || at === inside.length - 1 ? 0 : at + 1;
  inside[next].focus();
});
