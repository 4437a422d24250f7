/**
 * One sample per token rule (and per extra shape: URL credentials, a PEM block, a JWT), built at run time
 * from pieces so no complete token sits in the repository. Shared by the secrets tests.
 */

const r = (ch: string, n: number): string => ch.repeat(n);
/** 36 characters of mixed case and digits. */
const body36 = 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';

/** A PEM private key with a body secretlint accepts as real (ASN.1 magic "MI", 100+ base64 characters). */
export const PEM_BLOCK = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEow' + 'IBAAKCAQEA'.repeat(12),
  'q7R8s9T0' + 'u1V2'.repeat(10),
  '-----END RSA PRIVATE KEY-----',
].join('\n');

/** A JWT: base64url header and payload ("ey…") and a signature. */
export const JWT = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiJwcm9vZnByLXRlc3QifQ', 'c2lnbmF0dXJlLW9mLXRoZS10ZXN0'].join('.');

/** Samples keyed by the rule id they exercise; the value is the text and the secret part that must vanish. */
export const SHAPES: Record<string, { text: string; secret: string }> = {
  'secretlint/github': { text: `ghp_${body36}`, secret: body36 },
  'secretlint/npm': { text: `npm_${body36}`, secret: body36 },
  'secretlint/anthropic': { text: `sk-ant-api03-${r('Zq9', 31)}AA`, secret: r('Zq9', 31) },
  'secretlint/openai': { text: `sk-${r('Ab1', 6)}Ab T3BlbkFJ${r('Cd2', 6)}Cd`.replace(' ', ''), secret: r('Cd2', 6) },
  'secretlint/slack': { text: `xoxb-1234567890-1234567890123-${'Hk3'.repeat(8)}`, secret: 'Hk3'.repeat(8) },
  'secretlint/aws': { text: `AKIA${'Z7XQ3M9KLP2WERTY'}`, secret: 'Z7XQ3M9KLP2WERTY' },
  'secretlint/sendgrid': { text: `SG.${r('x', 22)}.${r('Yz4', 14)}a`, secret: r('Yz4', 14) },
  'secretlint/shopify': { text: `shpat_${r('f0e1', 8)}`, secret: r('f0e1', 8) },
  'secretlint/linear': { text: `lin_api_${r('Lm5', 12)}`, secret: r('Lm5', 12) },
  'secretlint/basicauth': { text: `https://deploy:Pw9x7Kq2Zr@git.example.net/app.git`, secret: 'Pw9x7Kq2Zr' },
  'secretlint/database-connection-string': { text: 'postgres://app:Dz8Qm2Lx7v@db.internal:5432/app', secret: 'Dz8Qm2Lx7v' },
  'secretlint/privatekey': { text: PEM_BLOCK, secret: 'IBAAKCAQEA' },
  'secretlint/gcp': {
    text: JSON.stringify({ type: 'service_account', private_key_id: 'k1', private_key: PEM_BLOCK }),
    secret: 'IBAAKCAQEA',
  },
  'secretlint/1password': {
    text: `ops_${Buffer.from(JSON.stringify({ email: 'bot@example.invalid', muk: { k: r('Op7', 40) } })).toString('base64')}`,
    secret: 'eyJlbWFpbCI6',
  },
  'private-key-block': { text: '-----BEGIN PRIVATE KEY-----\\nMIIEvQ' + r('Qk', 10) + '\\n', secret: 'MIIEvQ' },
  'url-credentials': { text: 'redis://default:Rq7Vn3Xw@cache.internal:6379', secret: 'Rq7Vn3Xw' },
  'authorization-header': { text: 'Authorization: token Tk9zX2v7Lm4Q', secret: 'Tk9zX2v7Lm4Q' },
  'bearer-token': { text: 'sent Bearer Br3aRer7Tok3n9x with the request', secret: 'Br3aRer7Tok3n9x' },
  jwt: { text: `token is ${JWT}`, secret: 'eyJzdWIiOiJwcm9vZnByLXRlc3QifQ' },
  'gitlab-token': { text: `glpat-${r('Gl6', 8)}`, secret: r('Gl6', 8) },
  'google-api-key': { text: `AIza${'Sy'}${r('G0o', 11)}`, secret: r('G0o', 11) },
  'stripe-key': { text: `sk_live_${r('St8', 8)}`, secret: r('St8', 8) },
  'github-token-prefix': { text: `ghs_${'Gh7Ts'.repeat(5)}`, secret: 'Gh7Ts'.repeat(5) },
  'anthropic-key-prefix': { text: `sk-ant-${'An7Kp'.repeat(3)}`, secret: 'An7Kp'.repeat(3) },
  'openai-key-prefix': { text: `sk-${'Oa5Ik'.repeat(7)}`, secret: 'Oa5Ik'.repeat(7) },
  'slack-token-prefix': { text: `xoxp-${'Sl4ck'.repeat(3)}`, secret: 'Sl4ck'.repeat(3) },
  'sendgrid-key-prefix': { text: `SG.${'Sg5'.repeat(6)}.${'Kx2'.repeat(7)}`, secret: 'Kx2'.repeat(7) },
  'shopify-token-prefix': { text: `shpca_${'Sh0p'.repeat(6)}`, secret: 'Sh0p'.repeat(6) },
  'npm-token-prefix': { text: `npm_${'Np3mT'.repeat(5)}`, secret: 'Np3mT'.repeat(5) },
  'aws-key-id': { text: 'AKIAIOSFODNN7EXAMPLE', secret: 'IOSFODNN7EXAMPLE' },
  'npmrc-auth': { text: '//registry.npmjs.org/:_authToken=Nr9cAuth7Tok', secret: 'Nr9cAuth7Tok' },
  'secret-assignment': { text: 'DB_PASSWORD="h7Gq2Lx9Vw3Z"', secret: 'h7Gq2Lx9Vw3Z' },
};
