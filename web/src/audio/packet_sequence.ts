// The audio packets' 32-bit sequence numbers, as they arrive: counts the
// packets lost in gaps (across the wraparound from 2^32 - 1 to 0) and tells
// a late or repeated packet, which would play out of order, from the next
// one. Pure logic (AudioPlayer feeds it).

// Distances of 2^31 or more ahead count as behind (serial number arithmetic).
const HALF = 0x80000000;

export type SequenceVerdict = "next" | "gap" | "late";

export class PacketSequence {
  private last: number | null = null;
  private lostCount = 0;

  // Packets never seen between the ones that arrived, so far.
  get lost(): number {
    return this.lostCount;
  }

  // A new stream (a reconnect or a new format): numbering starts afresh.
  reset(): void {
    this.last = null;
  }

  // Takes `sequence` (any 32-bit unsigned value): "next" when it follows the
  // last one (or is the first), "gap" when packets were skipped (counted in
  // lost), "late" when it is the last one again or older (not counted; the
  // caller drops it).
  take(sequence: number): SequenceVerdict {
    const seq = sequence >>> 0;
    if (this.last === null) {
      this.last = seq;
      return "next";
    }
    const ahead = (seq - this.last) >>> 0;
    if (ahead === 0 || ahead >= HALF) return "late";
    this.last = seq;
    if (ahead === 1) return "next";
    this.lostCount += ahead - 1;
    return "gap";
  }
}
