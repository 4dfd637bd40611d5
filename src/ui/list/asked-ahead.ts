/**
 * A list asks for a page the moment the user asks (a page button, a keystroke, a header, a
 * filter, a size): the router puts the query into the address only after that, in a transition
 * of its own (search validation, the route's render), and asking then cost a page jump the
 * router's whole turn before the list engine even heard of it. The address stays the truth for
 * reload and back/forward: when it commits, the list asks again unless it asked for that query
 * already. This keeps the queries asked ahead of their address, oldest first.
 */
export class AskedAhead {
  private pending: string[] = [];

  /** A query (its text) asked from the user's input, before the address carries it. */
  asked(text: string): void {
    this.pending.push(text);
    // A navigation that never commits (refused, replaced) must not pile up.
    if (this.pending.length > 32) this.pending.shift();
  }

  /**
   * The address now carries `text`: whether the list must ask for it. Not when it was asked
   * ahead (it is answered or on its way), nor when a newer query was asked since (the newer
   * one's answer is the one to show, and its address follows). A query the user did not ask
   * here (back/forward, a link, a reload) is asked, and anything asked ahead before it is
   * forgotten.
   */
  committed(text: string): boolean {
    const at = this.pending.indexOf(text);
    if (at < 0) {
      this.pending = [];
      return true;
    }
    this.pending = this.pending.slice(at + 1);
    return false;
  }

  /** Forgets every query asked ahead (the list now shows another entity). */
  clear(): void {
    this.pending = [];
  }
}
