/** Reads a text/event-stream body message by message (docs/API.md, "Live changes"). */
export interface SseMessage {
  id?: string
  event?: string
  data?: string
  /** Comment lines (`: ping`). */
  comments: string[]
}

export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>
  private readonly decoder = new TextDecoder()
  private buffer = ''
  done = false

  constructor(res: Response) {
    this.reader = res.body!.getReader()
  }

  /** The next message, pings included; null when the stream has ended. */
  async nextRaw(): Promise<SseMessage | null> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n')
      if (end !== -1) {
        const block = this.buffer.slice(0, end)
        this.buffer = this.buffer.slice(end + 2)
        const message: SseMessage = { comments: [] }
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) message.comments.push(line.slice(1).trim())
          else {
            const at = line.indexOf(':')
            const field = line.slice(0, at)
            const value = line.slice(at + 1).replace(/^ /, '')
            if (field === 'id' || field === 'event' || field === 'data') message[field] = value
          }
        }
        return message
      }
      const { value, done } = await this.reader.read()
      if (done) {
        this.done = true
        return null
      }
      this.buffer += this.decoder.decode(value, { stream: true })
    }
  }

  /** The next message that is not only a comment; null when the stream has ended. */
  async next(): Promise<SseMessage | null> {
    for (;;) {
      const message = await this.nextRaw()
      if (!message || message.id !== undefined || message.data !== undefined) return message
    }
  }

  /**
   * The next change event's data, parsed. What a person's streams are told about their own
   * workspaces and invitations (`event: workspaces`, `event: invitations`) is passed over.
   */
  async change(): Promise<{ eventId: string; data: Record<string, unknown> }> {
    let message = await this.next()
    while (message?.event === 'workspaces' || message?.event === 'invitations')
      message = await this.next()
    if (!message?.data) throw new Error(`expected a change, got ${JSON.stringify(message)}`)
    return { eventId: message.id!, data: JSON.parse(message.data) as Record<string, unknown> }
  }

  /** Resolves true once the server has ended the stream (reading whatever comes before). */
  async ended(): Promise<boolean> {
    while (await this.nextRaw());
    return true
  }

  async cancel(): Promise<void> {
    await this.reader.cancel()
  }
}
