/** The last `size` events, oldest first. */
export class ReplayBuffer {
  constructor(size) {
    if (!Number.isInteger(size) || size < 0) throw new RangeError('replay size must be a whole number');
    this.size = size;
    this.items = [];
  }

  push(event) {
    if (this.size === 0) return;
    this.items.push(event);
    if (this.items.length > this.size) this.items.shift();
  }

  matching(test) {
    return this.items.filter((event) => test(event.topic));
  }

  clear() {
    this.items = [];
  }
}
