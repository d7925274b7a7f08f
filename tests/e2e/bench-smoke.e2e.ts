import { describe, inject } from 'vitest'
import { runCanvasBench } from '../bench/canvas-bench.ts'
import { runFirstLoadBench } from '../bench/firstload-bench.ts'
import { runListBench } from '../bench/list-bench.ts'
import { runPixelBench } from '../bench/pixel-bench.ts'
import { runRefreshBench } from '../bench/refresh-bench.ts'
import { all, smokeRuns } from '../support/bench-figures.ts'

/**
 * Each benchmark that drives headless Chromium, in its smoke mode (README.md, "Benchmarks"): tiny
 * sizes, seconds, every figure reported and none of them reading that nothing was measured. The
 * canvas, pixel and first-load benchmarks run against the journeys' server (the test build); the
 * list and the refresh benchmarks start what they need themselves. The server's and the sync
 * engine's benchmarks have theirs in tests/server/bench-smoke.test.ts.
 */

/** The pixel benchmark's figures of each block type its smoke run compares. */
const byType = (name: string) => ['text', 'image'].map((type) => `${name}_${type}`)

describe('the browser’s benchmarks still run', () => {
  smokeRuns(
    [
      {
        title:
          'firstload: cold, repeat, offline and lie-fi visits at the wire, and a new account’s',
        run: () => runFirstLoadBench({ smoke: true, baseUrl: inject('baseUrl') }),
        figures: [
          ...all(
            'positive',
            'cold_js_kib_before_first_row',
            'cold_css_kib_before_first_row',
            'cold_requests_before_first_row',
            'cold_first_row_ms',
            'cold_js_kib_first_screen',
            'cold_css_kib_first_screen',
            'cold_requests_first_screen',
            'cold_first_screen_ms',
            'repeat_first_row_ms',
            'offline_first_row_ms',
            'liefi_first_row_ms',
            'liefi_vs_offline_ratio',
            'cold_first_row_ms_one_project',
            'cold_js_kib_first_screen_one_project',
            'cold_css_kib_first_screen_one_project',
            'cold_first_screen_ms_one_project',
          ),
          // A repeat visit may find everything it needs in its caches.
          ['repeat_kib_before_first_row', 'nonNegative'],
        ],
      },
      {
        title: 'list: the specialists screen with 100 and 10,000 rows, first rows and scrolling',
        run: () => runListBench({ smoke: true }),
        figures: all(
          'positive',
          ...[100, 10_000].flatMap((n) => [
            `list_${n}_first_rows_ms`,
            `list_${n}_longest_frame_ms`,
            `list_${n}_median_frame_ms`,
          ]),
          'list_first_rows_ratio_10k_vs_100',
          'list_longest_frame_ratio_10k_vs_100',
        ),
      },
      {
        title: 'refresh: the mirror filled, refreshed, emptied and refreshed again',
        run: () => runRefreshBench({ smoke: true }),
        figures: [
          ...all(
            'positive',
            'mirror_refresh_10k_fill_rows_per_s',
            'mirror_refresh_10k_fill_longest_frame_ms',
            'mirror_refresh_10k_rows_per_s',
            'mirror_refresh_10k_longest_frame_ms',
            'mirror_refresh_deleted_rows_per_s',
          ),
          // Long tasks are those of 50 ms and more: a small refresh may have none.
          ...all(
            'nonNegative',
            'mirror_refresh_10k_fill_longest_task_ms',
            'mirror_refresh_10k_longest_task_ms',
            'mirror_refresh_100_longest_task_ms',
            'mirror_refresh_longest_task_ratio_10k_vs_100',
          ),
        ],
      },
      {
        title:
          'canvas: drags beside Konva and bare Pixi, pans, an editor visit with edits, a repeat visit',
        run: () => runCanvasBench(undefined, { smoke: true, baseUrl: inject('baseUrl') }),
        figures: [
          // Frames presented while dragging and panning: none means the counters never moved.
          ...all(
            'positive',
            ...[
              'editor_100',
              'konva_100',
              'konva_snapping_100',
              'bare_pixi_100',
              'editor_1000',
              'konva_1000',
              'editor_5000',
              'konva_5000',
            ].map((scene) => `drag_fps_${scene}`),
            'drag_fps_ratio_vs_konva_100_fair',
            'drag_fps_ratio_vs_konva_1000_fair',
            'drag_fps_ratio_vs_konva_5000_fair',
            'drag_fps_ratio_vs_bare_pixi_100',
            'drag_input_latency_ms_p50',
            'drag_input_latency_ms_p50_bare_pixi_100',
            // The browser's CPU time per pointer move: zero means its counters never moved.
            ...[
              'editor_100',
              'konva_100',
              'konva_snapping_100',
              'editor_1000',
              'konva_1000',
              'editor_5000',
              'konva_5000',
              'floor_1000',
            ].map((scene) => `drag_cpu_ms_per_move_${scene}`),
            'drag_cpu_ratio_vs_konva_100',
            'drag_cpu_ratio_vs_konva_snapping_100',
            'drag_cpu_ratio_vs_konva_1000',
            'drag_cpu_ratio_vs_konva_5000',
            'drag_cpu_floor_ratio_vs_konva_1000',
            // The frame after a release: none would mean the scene was never seen drawn again.
            'drop_frame_ms_100',
            'drop_frame_ms_1000',
            'pan_fps_empty_stage',
            'pan_fps_1000',
            'pan_fps_ratio_vs_empty_stage_1000',
            'pan_first_frame_ms_empty_stage',
            'pan_first_frame_ms_1000',
            'pan_end_ms_empty_stage',
            'pan_end_ms_1000',
            'first_visit_first_rows_ms',
            'repeat_visit_first_rows_ms',
            'repeat_visit_first_rows_ratio_vs_first_visit',
          ),
          // An idle editor draws nothing (docs/editor.md).
          ['editor_idle_frames_per_s', 'nonNegative'],
          // An idle browser may read no CPU at all over a smoke run's half second.
          ['drag_cpu_ms_idle_per_s', 'nonNegative'],
          // Growths (none over one visit): a heap may shrink, textures and contexts come back.
          ...all(
            'finite',
            'editor_reopen_10x_heap_growth_mb',
            'editor_reopen_20x_heap_growth_mb',
            'editor_reopen_20x_worker_heap_growth_mb',
            'editor_reopen_20x_texture_growth',
            'editor_reopen_20x_gl_context_growth',
            'editor_reopen_20x_open_texture_growth',
            'editor_add_delete_texture_growth',
          ),
        ],
      },
      {
        title: 'pixels: blocks on the canvas and on the published page against the preview',
        run: () => runPixelBench(undefined, { smoke: true, baseUrl: inject('baseUrl') }),
        // The text and the picture blocks compared each way (the journeys compare every type); a
        // share of differing pixels may well be 0.
        figures: all(
          'nonNegative',
          ...byType('published_preview_mismatch_pct'),
          ...byType('published_preview_mismatch_pct_rotated'),
          ...byType('published_preview_mismatch_pct_stories'),
          'published_preview_mismatch_pct',
          ...byType('preview_canvas_mismatch_pct'),
          'preview_canvas_mismatch_pct_max',
          ...byType('preview_canvas_mismatch_pct_fractional'),
          'preview_canvas_mismatch_pct_fractional_max',
        ),
      },
      // Under a minute each on a quiet machine; minutes on one shared with other work.
    ],
    300_000,
  )
})
