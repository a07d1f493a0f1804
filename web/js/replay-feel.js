// The replay viewer's announcements and motion (issue 15): stepping forward by one step
// says that step's calls at their seats and moves its tile, as the live table does
// (announce.js, motion.js); a jump (another hand, a step back, Home / End) says nothing.
import { Announcer } from "./announce.js";
import { Motion } from "./motion.js";

export class ReplayFeel {
  constructor() {
    this.announcer = new Announcer();
    this.motion = new Motion();
    this.shown = null; // {hand, step} last drawn
  }

  destroy() {
    this.announcer.destroy();
  }

  /**
   * After the replay drew `box` at hand index `handIndex`, step `step`: `hand` is the
   * split record's hand (replay-fold.js), its events up to `lastIdx` shown.
   */
  decorate(box, { handIndex, step, hand, lastIdx, seat, seats }) {
    const prev = this.shown;
    this.shown = { hand: handIndex, step };
    const moved = !prev || prev.hand !== handIndex || prev.step !== step;
    if (moved) {
      this.announcer.destroy();
      this.motion.reset();
    }
    if (moved && prev && prev.hand === handIndex && step === prev.step + 1) {
      for (let i = hand.steps[step]; i <= lastIdx; i++) {
        const e = hand.events[i];
        const ev = { ...e.data, type: e.type };
        this.announcer.onEvent(ev);
        this.motion.onEvent(ev);
      }
    }
    this.announcer.decorate(box, seat, seats);
    this.motion.decorate(box, seat);
  }
}
