/** Collects a stream's bytes keeping the first and last `max / 2` bytes once it grows past `max`. */
export class OutputCap {
  private head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  total = 0;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const half = Math.floor(this.max / 2);
    if (this.headLen < half) {
      const take = chunk.subarray(0, half - this.headLen);
      this.head.push(take);
      this.headLen += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailLen += chunk.length;
    while (this.tailLen - (this.tail[0]?.length ?? 0) >= half && this.tail.length > 1) {
      this.tailLen -= (this.tail.shift() as Buffer).length;
    }
  }

  get truncated(): boolean {
    return this.total > this.max;
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    let tail = Buffer.concat(this.tail);
    if (!this.truncated) return head + tail.toString('utf8');
    const half = Math.floor(this.max / 2);
    tail = tail.subarray(Math.max(0, tail.length - half));
    const cut = this.total - this.headLen - tail.length;
    return `${head}\n… [${cut} bytes of output cut] …\n${tail.toString('utf8')}`;
  }
}
