export function createResponse() {
  return {
    status: 200,
    headers: {},
    body: undefined,
    finished: false,
    setHeader(name, value) {
      this.headers[name.toLowerCase()] = String(value);
      return this;
    },
    json(data, status) {
      if (status !== undefined) this.status = status;
      this.setHeader('content-type', 'application/json');
      this.body = JSON.stringify(data);
      this.finished = true;
      return this;
    },
    send(text, status) {
      if (status !== undefined) this.status = status;
      if (!this.headers['content-type']) this.setHeader('content-type', 'text/plain; charset=utf-8');
      this.body = String(text);
      this.finished = true;
      return this;
    },
    redirect(location, status = 302) {
      this.status = status;
      this.setHeader('location', location);
      this.finished = true;
      return this;
    },
  };
}

export function snapshot(res) {
  return { status: res.status, headers: { ...res.headers }, body: res.body };
}
