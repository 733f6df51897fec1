// narrate.js — engine events (docs/protocol.md "Events") in words, in the chosen language.
// Used by the table page's feed and reveal, and by the replay.

import { bidNode } from "/static/dice.js";
import { callWord, faceName, parseBid, t, tNodes } from "/static/i18n.js";

/** A pass hand in words ("full_house" → "a full house"). */
export function handName(hand) {
  return t(`hand.${hand}`);
}

/** One event in words: a fragment (bids drawn with their die). `nameOf(player)` names players. */
export function narrateEvent(e, nameOf) {
  const n = (p) => nameOf(p);
  switch (e.type) {
    case "SeatingRolled":
      return tNodes("ev.seating_rolled", {
        rolls: (e.rolls || []).map(([p, v]) => `${n(p)} ${v}`).join(", "),
      });
    case "SeatingDecided": {
      // e.order lists the seats clockwise; counterclockwise play runs back round them.
      const seats = e.order || [];
      const play = e.direction === "counterclockwise" ? [...seats.slice(0, 1), ...seats.slice(1).reverse()] : seats;
      return tNodes("ev.seating_decided", {
        order: play.map(n).join(" → "),
        direction: t(`val.${e.direction}`),
      });
    }
    case "RoundStarted":
      return tNodes(e.obliging ? "ev.round_started_obliging" : "ev.round_started", {
        n: e.number,
        name: n(e.opener),
      });
    case "ObligingRound":
      return tNodes("ev.obliging", {
        name: n(e.player),
        mode: t(`vis.${e.visibility ?? "choose"}`),
      });
    case "VisibilityChosen":
      return tNodes(e.open ? "ev.chose_open" : "ev.chose_closed", { name: n(e.player) });
    case "BidMade": {
      if (e.revealed && e.revealed.length) {
        return tNodes("ev.bid_reveal", {
          name: n(e.player),
          bid: bidNode(e.bid),
          dice: e.revealed.join(", "),
          count: e.rerolled,
        });
      }
      return tNodes("ev.bid", { name: n(e.player), bid: bidNode(e.bid) });
    }
    case "Passed":
      return tNodes("ev.passed", { name: n(e.player), word: callWord("pass") });
    case "Called":
      return tNodes(e.out_of_turn ? "ev.called_out" : "ev.called", {
        name: n(e.player),
        bidder: n(e.bidder),
        bid: bidNode(e.bid),
        word: callWord("call"),
      });
    case "SpotOnClaimed":
      return tNodes("ev.spot_on", {
        name: n(e.player),
        bidder: n(e.bidder),
        bid: bidNode(e.bid),
        word: callWord("spot-on"),
      });
    case "PassDoubted":
      return tNodes("ev.pass_doubted", {
        name: n(e.player),
        passer: n(e.passer),
        word: callWord("doubt-pass"),
      });
    case "Revealed": {
      if (e.bid != null && e.count != null) {
        const b = parseBid(e.bid);
        return tNodes("ev.revealed", {
          count: e.count,
          faces: faceName(b.face, e.count !== 1),
          bid: bidNode(e.bid),
        });
      }
      if (e.passer != null) {
        const hand = (e.hands?.[e.passer] || []).join(" ");
        return e.pass_hand
          ? tNodes("ev.pass_good", { name: n(e.passer), dice: hand, hand: handName(e.pass_hand) })
          : tNodes("ev.pass_bluff", { name: n(e.passer), dice: hand });
      }
      return tNodes("ev.revealed_plain", {});
    }
    case "DiceLost":
      return tNodes("ev.dice_lost", { name: n(e.player), count: e.count, left: diceLeft(e.remaining) });
    case "DieWon":
      return tNodes("ev.die_won", { name: n(e.player), remaining: e.remaining });
    case "RoundCancelled":
      return tNodes("ev.round_cancelled", { name: n(e.player) });
    case "Eliminated":
      return tNodes("ev.eliminated", { name: n(e.player) });
    case "GameOver":
      return tNodes("ev.game_over", { name: n(e.winner) });
    default:
      return document.createTextNode(e.type);
  }
}

/** Did die `index` of player `p`'s hand count for the bid of a Revealed event? The server
 * marks them (`counted`, from the engine's counting), so the page knows no counting rule. */
export function countsForReveal(e, p, index) {
  return !!(e.counted && e.counted[p] && e.counted[p][index]);
}

/** "3 left", "1 left", "none left": the number decides the words, not only the digit. */
function diceLeft(remaining) {
  return remaining === 0 ? t("ev.left_none") : t("ev.left", { count: remaining });
}
