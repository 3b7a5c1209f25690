/**
 * The checker reports UTF-8 BYTE offsets; editors and JS strings index UTF-16 code units.
 * A token may end inside a multibyte character: its end maps to the end of that character.
 */
export class ByteOffsets {
  private readonly units: Int32Array; // byte offset -> UTF-16 index of the char holding that byte

  constructor(readonly text: string) {
    const bytes: number[] = [];
    for (let i = 0; i < text.length; ) {
      const cp = text.codePointAt(i)!;
      const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      for (let k = 0; k < n; k++) {
        bytes.push(k === 0 ? i : -(i + 1)); // negative: inside the character starting at i
      }
      i += cp > 0xffff ? 2 : 1;
    }
    this.units = Int32Array.from(bytes);
  }

  /** UTF-16 index for a start offset (a split character starts where it starts). */
  start(byte: number): number {
    if (byte >= this.units.length) {
      return this.text.length;
    }
    const u = this.units[byte];
    return u >= 0 ? u : -u - 1;
  }

  /** UTF-16 index for an end offset (a split character ends where it ends). */
  end(byte: number): number {
    if (byte >= this.units.length) {
      return this.text.length;
    }
    const u = this.units[byte];
    if (u >= 0) {
      return u;
    }
    const start = -u - 1;
    return start + (this.text.codePointAt(start)! > 0xffff ? 2 : 1);
  }
}
