/** The award routes' emoji names are the gemoji package's, kept as one string for cold starts. */
import { gemoji } from 'gemoji';
import { describe, expect, it } from 'vitest';
import { isEmojiName } from '#domain/award-emoji.ts';
import { EMOJI_NAMES } from '#domain/emoji-names.ts';

describe('emoji names', () => {
  it('are the names of the installed gemoji list, aliases included, in its order', () => {
    expect(EMOJI_NAMES.split(' ')).toEqual(gemoji.flatMap((emoji) => emoji.names));
  });

  it('name every emoji and only emoji', () => {
    expect(isEmojiName('thumbsup')).toBe(true);
    expect(isEmojiName('+1')).toBe(true);
    expect(isEmojiName('smiling_face_with_tear')).toBe(true);
    expect(isEmojiName('')).toBe(false);
    expect(isEmojiName('thumbs')).toBe(false);
    expect(isEmojiName('thumbsup thumbsdown')).toBe(false);
  });
});
