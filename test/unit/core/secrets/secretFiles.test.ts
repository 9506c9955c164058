import { describe, expect, it } from 'vitest';
import { secretFileReason } from '../../../../src/core/access/secrets/secretFiles';

describe('secretFileReason', () => {
  it('judges the last segment of the path, ignoring letter case and trailing slashes', () => {
    for (const secret of [
      '.env',
      'app/.env.local',
      'a/b/Server.PEM',
      'keys/tls.key',
      'home/.ssh/id_ed25519',
      'x/id_rsa.pub',
      'dir/.env/',
      'a//.ENV',
    ])
      expect(secretFileReason(secret), secret).toBeDefined();
    for (const plain of ['', '/', 'src/.env.ts/index.ts', 'src/id_generator.ts', '.env/readme.md', 'keys/', 'pem', 'src/monkey.ts'])
      expect(secretFileReason(plain), plain).toBeUndefined();
  });
});
