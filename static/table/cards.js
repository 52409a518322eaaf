// Cards as DOM: readable without colour (rank + suit symbol, named for screen readers), with an
// optional four-colour deck (clubs green, diamonds blue) saved in localStorage.

const RANKS = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
const SUITS = {
  C: { symbol: "♣", name: "clubs" },
  D: { symbol: "♦", name: "diamonds" },
  H: { symbol: "♥", name: "hearts" },
  S: { symbol: "♠", name: "spades" },
};
const CODE = /^[2-9TJQKA][CDHS]$/;
const FOUR_COLOUR_KEY = "frenzy.fourColourDeck";

export function isCard(code) {
  return typeof code === "string" && CODE.test(code);
}

export function rankLabel(code) {
  return code[0] === "T" ? "10" : code[0];
}

/** "TD" -> "10♦" */
export function cardText(code) {
  if (!isCard(code)) return "?";
  return rankLabel(code) + SUITS[code[1]].symbol;
}

/** "TD" -> "ten of diamonds" */
export function cardName(code) {
  if (!isCard(code)) return "unknown card";
  return `${RANKS[code[0]]} of ${SUITS[code[1]].name}`;
}

export function cardsText(codes) {
  return (codes || []).map(cardText).join(" ");
}

/** "K♠ 10♥" and "KS-TH": cards as they are printed or coded, found in a text. */
const IN_TEXT = /\b(10|[2-9JQKA])([♣♦♥♠])|\b([2-9TJQKA])([CDHS])\b/g;
const PRINTED = /\b(10|[2-9JQKA])([♣♦♥♠])/g;
const BY_SYMBOL = Object.fromEntries(Object.entries(SUITS).map(([code, s]) => [s.symbol, code]));

function codeOf(match) {
  const [, rank, symbol, rankCode, suitCode] = match;
  if (rankCode) return rankCode + suitCode;
  return (rank === "10" ? "T" : rank) + BY_SYMBOL[symbol];
}

/** A text with its cards in words, for a live region or a name: "K♠ = 10" and "KS = 10" ->
 * "king of spades = 10" (a screen reader says "black spade suit", or nothing, for a symbol,
 * and letters for a code). */
export function spokenCards(text) {
  return String(text ?? "").replace(IN_TEXT, (...m) => cardName(codeOf(m)));
}

/** A text for the page: the cards as printed for the eye, in words for screen readers (a
 * hidden name beside each symbol, which is hidden from them). Returns nodes for h() / fill(). */
export function speakable(text) {
  const source = String(text ?? "");
  const nodes = [];
  let last = 0;
  for (const m of source.matchAll(PRINTED)) {
    if (m.index > last) nodes.push(document.createTextNode(source.slice(last, m.index)));
    nodes.push(el("span", "card-symbol", m[0]));
    nodes.at(-1).setAttribute("aria-hidden", "true");
    nodes.push(el("span", "visually-hidden", cardName(codeOf(m))));
    last = m.index + m[0].length;
  }
  if (last < source.length) nodes.push(document.createTextNode(source.slice(last)));
  return nodes;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * One card face. `best` marks a card of the best four-card hand; `dim` a card left out of it.
 */
export function cardFace(code, { best = false, dim = false, size = "" } = {}) {
  if (!isCard(code)) return cardBack();
  const suit = SUITS[code[1]];
  const node = el("span", `card face suit-${suit.name}${size ? ` card-${size}` : ""}`);
  if (best) node.classList.add("best");
  if (dim) node.classList.add("dim");
  node.setAttribute("role", "img");
  node.setAttribute(
    "aria-label",
    cardName(code) + (best ? ", in the best four" : dim ? ", not used" : ""),
  );
  node.dataset.card = code;
  const corner = el("span", "corner");
  corner.append(el("span", "rank", rankLabel(code)), el("span", "suit", suit.symbol));
  node.append(corner, el("span", "pip", suit.symbol));
  return node;
}

export function cardBack({ back = "red", size = "" } = {}) {
  const node = el("span", `card back back-${back === "blue" ? "blue" : "red"}${size ? ` card-${size}` : ""}`);
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", "face-down card");
  return node;
}

/**
 * A row of cards. `codes` null: `count` face-down cards. `bestFour`: highlight those.
 */
export function cardRow({ codes = null, count = 5, bestFour = null, back = "red", size = "" } = {}) {
  const row = el("span", "cards-row");
  if (codes) {
    const best = new Set(bestFour || []);
    for (const code of codes) {
      const inBest = bestFour ? best.has(code) : false;
      row.append(cardFace(code, { best: inBest, dim: Boolean(bestFour) && !inBest, size }));
    }
  } else {
    for (let i = 0; i < count; i++) row.append(cardBack({ back, size }));
    row.setAttribute("aria-label", `${count} face-down cards`);
  }
  row.setAttribute("role", "group");
  return row;
}

/** Four-colour deck toggle (a checkbox), remembered in localStorage. */
export function setupFourColour(checkbox) {
  let on = false;
  try {
    on = localStorage.getItem(FOUR_COLOUR_KEY) === "1";
  } catch {
    on = false;
  }
  document.body.classList.toggle("four-colour", on);
  if (!checkbox) return;
  checkbox.checked = on;
  checkbox.addEventListener("change", () => {
    document.body.classList.toggle("four-colour", checkbox.checked);
    try {
      localStorage.setItem(FOUR_COLOUR_KEY, checkbox.checked ? "1" : "0");
    } catch {
      /* private mode: the choice lasts for this page */
    }
  });
}
