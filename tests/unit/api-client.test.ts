// @vitest-environment node
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { ApiError, ContractError, NetworkError, readResponse } from '../../src/api/client.ts'

const Schema = v.object({ id: v.number() })
const json = (status: number, body: string) =>
  new Response(body, { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } })

describe('reading an answer', () => {
  it('takes the API’s JSON', async () => {
    await expect(readResponse(json(200, '{"id":3}'), Schema)).resolves.toEqual({ id: 3 })
  })

  it('counts a page that is not the API’s (a captive portal’s 200) as no answer, to try again', async () => {
    const portal = new Response('<html>Войдите в сеть Wi-Fi</html>', {
      status: 200,
      headers: { 'Content-Type': 'text/html' },
    })
    await expect(readResponse(portal, Schema)).rejects.toBeInstanceOf(NetworkError)
    const plain = new Response('{"id":3}', {
      status: 200,
      headers: { 'Content-Type': 'text/plain' },
    })
    await expect(readResponse(plain, Schema)).rejects.toBeInstanceOf(NetworkError)
  })

  it('counts a body cut off on the way as no answer', async () => {
    await expect(readResponse(json(200, '{"id":'), Schema)).rejects.toBeInstanceOf(NetworkError)
    const broken = new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"id"'))
          controller.error(new Error('socket hang up'))
        },
      }),
      { status: 200, headers: { 'Content-Type': 'application/json' } },
    )
    await expect(readResponse(broken, Schema)).rejects.toBeInstanceOf(NetworkError)
  })

  it('keeps a JSON answer that breaks the contract, and the API’s refusals, as they are', async () => {
    await expect(readResponse(json(200, '{"id":"x"}'), Schema)).rejects.toBeInstanceOf(
      ContractError,
    )
    const refusal = json(422, '{"error":{"code":"validation_error","message":"Проверьте поля"}}')
    await expect(readResponse(refusal, Schema)).rejects.toMatchObject({
      status: 422,
      code: 'validation_error',
    })
    await expect(readResponse(json(422, 'oops'), Schema)).rejects.toBeInstanceOf(ApiError)
  })
})
