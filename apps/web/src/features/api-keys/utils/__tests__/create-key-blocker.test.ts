import { describe, expect, it } from 'vitest';
import { createKeyBlocker, type CreateKeyState } from '../create-key-blocker';

const ready: CreateKeyState = {
  name: 'Partner key',
  pending: false,
  custom: true,
  owner: { id: 'u1' },
  previewCurrent: true,
  previewFailed: false,
  previewValid: true,
};

describe('createKeyBlocker', () => {
  it('names nothing when the key can be created', () => {
    expect(createKeyBlocker(ready)).toBeNull();
    expect(createKeyBlocker({ name: 'k', pending: false, custom: false })).toBeNull();
  });
  it('asks for a name first', () => {
    expect(createKeyBlocker({ ...ready, name: '   ' })).toBe('createKeyBlocker.name');
    expect(createKeyBlocker({ name: '', pending: false, custom: false })).toBe('createKeyBlocker.name');
  });
  it('says why when every plan listed would be refused', () => {
    expect(createKeyBlocker({ name: 'k', pending: false, custom: false, noPlan: true })).toBe(
      'createKeyBlocker.noPlan',
    );
  });
  it('says the limits are invalid when the preview refuses them', () => {
    expect(createKeyBlocker({ ...ready, previewValid: false })).toBe('createKeyBlocker.invalid');
  });
  it('says it is checking while the preview is not for the limits shown', () => {
    expect(createKeyBlocker({ ...ready, previewCurrent: false })).toBe('createKeyBlocker.checking');
    expect(createKeyBlocker({ ...ready, owner: undefined })).toBe('createKeyBlocker.checking');
  });
  it('names an unknown owner and a failed check', () => {
    expect(createKeyBlocker({ ...ready, owner: null })).toBe('createKeyBlocker.owner');
    expect(createKeyBlocker({ ...ready, previewFailed: true })).toBe('createKeyBlocker.previewFailed');
  });
  it('names nothing while the key is being created', () => {
    expect(createKeyBlocker({ ...ready, name: '', pending: true })).toBeNull();
  });
});
