/**
 * Tracked credential files of the world (issue 37), each in the format its tool writes, with a canary where
 * the secret goes: files whose names were never on a list of secret names (`.pgpass`, `.netrc`, `.pypirc`,
 * `.s3cfg`, Jenkins' `credentials.xml`, `.boto`, `.gem/credentials`, `.terraformrc`, `.my.cnf`, Sublime's
 * `sftp-config.json`), the same formats under neutral names, a tracked dotenv holding an AWS key, and a PEM
 * private key under a neutral name. A wall that knows secrets by content hides every one of them.
 */
import { canaryValue as v } from './canaries.js';

const pgpass = (secret: string): string => `# host:port:database:username:password\ndb.internal.example:5432:app:app_user:${secret}\n`;

const s3cfg = (key: string, secret: string): string =>
  `[default]\naccess_key = ${key}\nsecret_key = ${secret}\nhost_base = s3.amazonaws.com\nhost_bucket = %(bucket)s.s3.amazonaws.com\nuse_https = True\n`;

const jenkins = (secret: string): string => `<?xml version='1.1' encoding='UTF-8'?>
<com.cloudbees.plugins.credentials.SystemCredentialsProvider plugin="credentials@2.6.1">
  <domainCredentialsMap class="hudson.util.CopyOnWriteMap$Hash">
    <entry>
      <com.cloudbees.plugins.credentials.domains.Domain>
        <specifications/>
      </com.cloudbees.plugins.credentials.domains.Domain>
      <java.util.concurrent.CopyOnWriteArrayList>
        <com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>
          <scope>GLOBAL</scope>
          <id>deploy</id>
          <description>deploy user</description>
          <username>deploy</username>
          <password>{AQAAABAAAAAQ${secret}=}</password>
        </com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>
      </java.util.concurrent.CopyOnWriteArrayList>
    </entry>
  </domainCredentialsMap>
</com.cloudbees.plugins.credentials.SystemCredentialsProvider>
`;

const sftp = (secret: string): string =>
  JSON.stringify(
    {
      type: 'sftp',
      save_before_upload: true,
      upload_on_save: false,
      host: 'deploy.example.com',
      user: 'deploy',
      password: secret,
      port: '22',
      remote_path: '/var/www/app/',
    },
    null,
    4,
  ) + '\n';

export const CONTENT_SECRETS: Record<string, string> = {
  '.pgpass': pgpass(v('pgpass')),
  '.netrc': `machine api.example.com\n  login deploy\n  password ${v('netrc')}\n`,
  '.pypirc': `[distutils]\nindex-servers =\n    pypi\n\n[pypi]\nusername = __token__\npassword = ${v('pypirc')}\n`,
  '.s3cfg': s3cfg('AKIAIOSFODNN7FXSCFG1', v('scfg')),
  'credentials.xml': jenkins(v('credxml')),
  '.boto': `[Credentials]\naws_access_key_id = AKIAIOSFODNN7FXBOTO1\naws_secret_access_key = ${v('boto')}\n\n[Boto]\nhttps_validate_certificates = True\n`,
  '.gem/credentials': `---\n:rubygems_api_key: ${v('gemcred')}\n`,
  '.terraformrc': `plugin_cache_dir = "$HOME/.terraform.d/plugin-cache"\n\ncredentials "app.terraform.io" {\n  token = "${v('tfrc')}"\n}\n`,
  '.my.cnf': `[client]\nuser = app\npassword = ${v('mycnf')}\nhost = db.internal.example\n`,
  'sftp-config.json': sftp(v('sftpcfg')),
  'notes/db-access.txt': pgpass(v('pgneutral')),
  'config/storage.ini': s3cfg('AKIAIOSFODNN7FXSTOR1', v('scfgneutral')),
  'ci/jenkins-export.xml': jenkins(v('xmlneutral')),
  'config/remote.json': sftp(v('sftpneutral')),
  'deploy/.env.production': `NODE_ENV=production\nAWS_ACCESS_KEY_ID=AKIAIOSFODNN7FXENVP1\nAWS_SECRET_ACCESS_KEY=${v('envaws')}\n`,
  'docs/example-key.txt': `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA${v('pemkey')}q3vN0bXk8s1Rz2Yw\nT9pL4mC7dQ1fH6jK2sV8xB5nE3rU0yW9aZ4cG7kM1pQ6tR8vX2bD5fJ9hL3nP7sV\n-----END RSA PRIVATE KEY-----\n`,
};

/** The tracked credential files by name: the targets of the `secret-by-content` and `secret-copy` classes. */
export const CONTENT_TARGETS: Array<[string, string]> = [
  ['pgpass', '.pgpass'],
  ['netrc', '.netrc'],
  ['pypirc', '.pypirc'],
  ['scfg', '.s3cfg'],
  ['credxml', 'credentials.xml'],
  ['boto', '.boto'],
  ['gemcred', '.gem/credentials'],
  ['tfrc', '.terraformrc'],
  ['mycnf', '.my.cnf'],
  ['sftpcfg', 'sftp-config.json'],
  ['pgneutral', 'notes/db-access.txt'],
  ['scfgneutral', 'config/storage.ini'],
  ['xmlneutral', 'ci/jenkins-export.xml'],
  ['sftpneutral', 'config/remote.json'],
  ['envaws', 'deploy/.env.production'],
  ['pemkey', 'docs/example-key.txt'],
];
