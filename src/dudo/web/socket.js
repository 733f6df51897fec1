// socket.js — the table's WebSocket client (docs/protocol.md, "WebSocket /ws/{code}").
//
// Opens /ws/<code>, sends `hello` with the seat token and `since` (the last event seq seen of
// the current game), and reconnects on close with exponential backoff capped at 5 s. It
// numbers events: `update` frames reach onFrame with only the events not seen yet (seq >
// last seen), and `newGame: true` when `update.game` changed (the count restarts at -1).
//
//   const sock = new TableSocket(code, {token, onFrame, onStatus});
//   sock.connect(); sock.send({type: "act", action: "3x4", turn: 17});
//   sock.setToken(newToken);   // reconnect as another identity (after joining)

const BACKOFF_START_MS = 250;
const BACKOFF_CAP_MS = 5000;
const PING_MS = 20000;

export class TableSocket {
  constructor(code, { token = null, onFrame = () => {}, onStatus = () => {} } = {}) {
    this.code = code;
    this.token = token;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.ws = null;
    this.game = null;
    this.lastSeq = -1;
    this.delay = BACKOFF_START_MS;
    this.retryTimer = null;
    this.pingTimer = null;
    this.closedByUs = false;
    this.status = "idle";
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/${encodeURIComponent(this.code)}`;
  }

  setStatus(status) {
    this.status = status;
    this.onStatus(status);
  }

  connect() {
    this.closedByUs = false;
    clearTimeout(this.retryTimer);
    this.setStatus("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (err) {
      console.warn("websocket:", err);
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      ws.send(
        JSON.stringify({ type: "hello", token: this.token, since: this.lastSeq, game: this.game }),
      );
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    });
    ws.addEventListener("message", (msg) => {
      if (this.ws !== ws) return;
      let frame;
      try {
        frame = JSON.parse(msg.data);
      } catch {
        console.warn("websocket: not JSON", msg.data);
        return;
      }
      if (frame.type === "welcome") {
        this.delay = BACKOFF_START_MS;
        this.setStatus("open");
      }
      if (frame.type === "update") frame = this.number(frame);
      this.onFrame(frame);
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      if (this.closedByUs) {
        this.setStatus("closed");
        return;
      }
      if (ev.code === 4404) {
        this.setStatus("gone"); // no such table: trying again will not help
        return;
      }
      this.setStatus(ev.code === 1008 ? "refused" : "offline");
      this.scheduleReconnect();
    });
    ws.addEventListener("error", () => {
      /* a close event follows */
    });
  }

  /** Keep only unseen events of an update; restart the count when the game changes. */
  number(frame) {
    let newGame = false;
    if (frame.game !== this.game) {
      newGame = this.game !== null || frame.game !== null;
      this.game = frame.game;
      this.lastSeq = -1;
    }
    const fresh = [];
    for (const event of frame.events || []) {
      if (typeof event.seq !== "number" || event.seq > this.lastSeq) {
        fresh.push(event);
        if (typeof event.seq === "number") this.lastSeq = event.seq;
      }
    }
    return { ...frame, events: fresh, newGame };
  }

  scheduleReconnect() {
    clearTimeout(this.retryTimer);
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, BACKOFF_CAP_MS);
    // hello names the game `since` counts events of, so after a rematch the server resends all.
    this.retryTimer = setTimeout(() => {
      if (!this.closedByUs) this.connect();
    }, wait);
  }

  /** Send a frame; false when not connected (the caller may tell the user). */
  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  setToken(token) {
    this.token = token;
    this.reconnectNow();
  }

  reconnectNow() {
    const old = this.ws;
    this.ws = null;
    if (old) old.close(1000);
    this.delay = BACKOFF_START_MS;
    this.connect();
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close(1000);
  }
}
