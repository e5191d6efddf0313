/** The run form's image fields → the workload's `images` and back; issues land on the fields. */
import { describe, expect, it } from 'vitest';
import {
  defaultDraft,
  draftToWorkload,
  fieldOfPath,
  validateDraft,
  workloadToDraft,
} from './workload-draft.ts';

describe('image fields', () => {
  it('none by default; a count and size become images, and a loaded workload comes back the same', () => {
    expect(draftToWorkload(defaultDraft()).images).toBeUndefined();
    const w = draftToWorkload({ ...defaultDraft(), imageCount: '2', imageWidth: '640', imageHeight: '480' });
    expect(w.images).toEqual({ count: 2, width: 640, height: 480 });
    const back = workloadToDraft(w);
    expect([back.imageCount, back.imageWidth, back.imageHeight]).toEqual(['2', '640', '480']);
    // Files and distinct ride along; with files no size is written.
    const files = workloadToDraft({ requests: 1, images: { count: 1, paths: ['a.jpg'], distinct: 4 } });
    expect(draftToWorkload(files).images).toEqual({ count: 1, paths: ['a.jpg'], distinct: 4 });
    expect(draftToWorkload({ ...files, imageCount: '' }).images).toBeUndefined();
  });

  it('bad values are the schema’s, on the image fields', () => {
    const issues = validateDraft({ ...defaultDraft(), imageCount: '100', imageWidth: '9000' });
    const fields = issues.map((i) => fieldOfPath(i.path));
    expect(fields).toContain('imageCount');
    expect(fields).toContain('imageWidth');
    expect(issues.find((i) => i.path === 'images.count')!.message).toMatch(/at most 64 images per request/);
  });
});
