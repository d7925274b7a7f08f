import { describe, expect, it } from 'vitest'
import { videoEmbed } from '../../src/domain/video-embed.ts'

describe('videoEmbed', () => {
  it('knows YouTube, VK Video and Rutube links in their common forms', () => {
    for (const link of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ&t=10',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
    ]) {
      expect(videoEmbed(link)?.embed, link).toBe(
        'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&playsinline=1',
      )
    }
    for (const link of [
      'https://vk.com/video-12345_456239017',
      'https://vkvideo.ru/video-12345_456239017',
      'https://vk.com/club12345?z=video-12345_456239017',
    ]) {
      expect(videoEmbed(link)?.embed, link).toBe(
        'https://vk.com/video_ext.php?oid=-12345&id=456239017&hd=2&autoplay=1',
      )
    }
    expect(videoEmbed('https://rutube.ru/video/0123456789abcdef0123456789abcdef/')).toMatchObject({
      provider: 'rutube',
      embed: 'https://rutube.ru/play/embed/0123456789abcdef0123456789abcdef?autoplay=1',
    })
  })

  it('leaves anything else alone', () => {
    for (const link of [
      '',
      '/uploads/clip.mp4',
      'https://example.ru/video.mp4',
      'javascript:alert(1)',
      'https://youtube.com/watch?v=<script>',
      'https://rutube.ru/video/short/',
      'https://evil.example/vk.com/video-1_2',
    ]) {
      expect(videoEmbed(link), link).toBeNull()
    }
  })
})
