import { describe, expect, it } from 'vitest';
import { extractDocument } from './extract';
import { transcriptionHandlers, type Transcribe } from './transcribe';

const mp3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0]);
const mp4 = new Uint8Array([0, 0, 0, 0x18, ...new TextEncoder().encode('ftypisom')]);

describe('extractDocument: audio and video', () => {
  it('uses the injected transcription, passing the detected MIME type', async () => {
    const calls: string[] = [];
    const transcribe: Transcribe = ({ mimeType }) => {
      calls.push(mimeType);
      return Promise.resolve(` Transcript of ${mimeType} \n`);
    };
    const handlers = transcriptionHandlers(transcribe);
    const audio = await extractDocument(mp3, { fileName: 'visit.mp3', handlers });
    expect(audio).toEqual({
      title: 'visit',
      markdown: 'Transcript of audio/mpeg',
      mimeType: 'audio/mpeg',
      warnings: [],
    });
    const video = await extractDocument(mp4, { handlers });
    expect(video.markdown).toBe('Transcript of video/mp4');
    expect(calls).toEqual(['audio/mpeg', 'video/mp4']);
  });

  it('warns on an empty transcript and fails clearly without a transcribing model', async () => {
    const handlers = transcriptionHandlers(() => Promise.resolve('  '));
    expect((await extractDocument(mp4, { handlers })).warnings).toEqual([
      'The transcription of this video file is empty.',
    ]);
    await expect(extractDocument(mp4)).rejects.toThrow(
      'Unsupported document format: video/mp4 (video): the configured model has no transcription',
    );
  });
});
