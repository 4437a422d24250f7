/*
 * Two corpora for "secrets by content" (docs/benchmarks.md, "Secrets by content"), written by a rule
 * before the content rules were built, and measured against the code as it was first:
 *
 * (a) CREDENTIAL FILES. For each widely used tool that keeps a credential in a file of its own format,
 *     taken by category (database clients, cloud CLIs, package registries, CI servers and CI CLIs,
 *     infrastructure-as-code tools, secret managers, FTP/SFTP clients, mail clients, version-control and
 *     hosting CLIs, container and cluster tools, web servers, application frameworks): one realistic
 *     file in that tool's own documented format holding a real-shaped fake credential (random characters
 *     of the tool's token shape where it has one, else a 16+ character mixed password), at the tool's
 *     conventional path. Each file is judged twice: at that path, and with the same bytes at the neutral
 *     path `fixtures/a.txt` (a judgement by name cannot follow a copy there).
 * (b) BENIGN FIXTURES. Files real repositories track under secret-looking names that hold no
 *     credential: dotenv test fixtures (`BASIC=basic`), config samples and templates, test data with
 *     `password: test`-style values, placeholders (`changeme`, `YOUR_API_KEY`, `<token>`, `${VAR}`,
 *     `xxx`), vendors' documented example keys, public keys and certificates, references to CI secrets.
 *     None of them should be masked.
 *
 * The values are generated here (seeded), never real.
 */

/** Deterministic random characters of `alphabet` (a seeded LCG): real-shaped, never real. */
export function fake(seed: number, n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let x = (seed * 2654435761) >>> 0;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += alphabet[(x >>> 16) % alphabet.length];
  }
  return out;
}

const HEX = '0123456789abcdef';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** A human-made password: mixed case, digits and a symbol. */
const pw = (seed: number): string => `${fake(seed, 6)}#${fake(seed + 1, 5)}!${fake(seed + 2, 4, '0123456789')}`;
const awsId = (seed: number): string => `AKIA${fake(seed, 16, UPPER)}`;
const awsSecret = (seed: number): string => fake(seed, 40, B64);

export interface CorpusFile {
  tool: string;
  category: string;
  path: string;
  content: string;
}

export const CREDENTIAL_FILES: readonly CorpusFile[] = [
  // database clients
  { tool: 'PostgreSQL libpq', category: 'database', path: '.pgpass', content: `db.internal:5432:app:app_rw:${pw(1)}\n` },
  { tool: 'MySQL client', category: 'database', path: '.my.cnf', content: `[client]\nuser=deploy\npassword=${pw(2)}\nhost=db.internal\n` },
  {
    tool: 'PostgreSQL service file',
    category: 'database',
    path: '.pg_service.conf',
    content: `[prod]\nhost=db.internal\nport=5432\ndbname=app\nuser=app\npassword=${pw(3)}\n`,
  },
  { tool: 'Redis server', category: 'database', path: 'redis.conf', content: `bind 127.0.0.1\nport 6379\nrequirepass ${fake(4, 32)}\n` },
  {
    tool: 'unixODBC',
    category: 'database',
    path: 'odbc.ini',
    content: `[warehouse]\nDriver = PostgreSQL Unicode\nServername = dw.internal\nUserName = etl\nPassword = ${pw(5)}\n`,
  },
  {
    tool: 'SnowSQL',
    category: 'database',
    path: '.snowsql/config',
    content: `[connections]\naccountname = acme-xy12345\nusername = loader\npassword = ${pw(6)}\n`,
  },
  // cloud CLIs
  {
    tool: 'AWS CLI',
    category: 'cloud',
    path: '.aws/credentials',
    content: `[default]\naws_access_key_id = ${awsId(7)}\naws_secret_access_key = ${awsSecret(8)}\n`,
  },
  {
    tool: 'boto',
    category: 'cloud',
    path: '.boto',
    content: `[Credentials]\naws_access_key_id = ${awsId(9)}\naws_secret_access_key = ${awsSecret(10)}\n`,
  },
  {
    tool: 's3cmd',
    category: 'cloud',
    path: '.s3cfg',
    content: `[default]\naccess_key = ${awsId(11)}\nsecret_key = ${awsSecret(12)}\nhost_base = s3.amazonaws.com\nuse_https = True\n`,
  },
  {
    tool: 'gcloud ADC',
    category: 'cloud',
    path: '.config/gcloud/application_default_credentials.json',
    content: JSON.stringify(
      {
        client_id: `${fake(13, 12, '0123456789')}-${fake(14, 32, 'abcdefghijklmnopqrstuvwxyz0123456789')}.apps.googleusercontent.com`,
        client_secret: `GOCSPX-${fake(15, 28)}`,
        refresh_token: `1//0g${fake(16, 98)}`,
        type: 'authorized_user',
      },
      null,
      2,
    ),
  },
  {
    tool: 'Azure CLI',
    category: 'cloud',
    path: '.azure/accessTokens.json',
    content: JSON.stringify([
      { tokenType: 'Bearer', expiresIn: 3599, refreshToken: fake(17, 120), accessToken: `eyJ0eXAiOiJKV1Qi.${fake(18, 60)}` },
    ]),
  },
  {
    tool: 'doctl',
    category: 'cloud',
    path: '.config/doctl/config.yaml',
    content: `access-token: dop_v1_${fake(19, 64, HEX)}\ncontext: default\n`,
  },
  {
    tool: 'rclone',
    category: 'cloud',
    path: '.config/rclone/rclone.conf',
    content: `[b2]\ntype = s3\nprovider = AWS\naccess_key_id = ${awsId(20)}\nsecret_access_key = ${awsSecret(21)}\n`,
  },
  {
    tool: 'linode-cli',
    category: 'cloud',
    path: '.config/linode-cli',
    content: `[DEFAULT]\ndefault-user = ops\n\n[ops]\ntoken = ${fake(22, 64, HEX)}\nregion = eu-west\n`,
  },
  {
    tool: 'Databricks CLI',
    category: 'cloud',
    path: '.databrickscfg',
    content: `[DEFAULT]\nhost = https://adb-123.azuredatabricks.net\ntoken = dapi${fake(23, 32, HEX)}\n`,
  },
  // package registries
  { tool: 'npm', category: 'registry', path: '.npmrc', content: `//registry.npmjs.org/:_authToken=npm_${fake(24, 36)}\n` },
  {
    tool: 'Yarn Berry',
    category: 'registry',
    path: '.yarnrc.yml',
    content: `npmRegistryServer: "https://npm.acme.dev"\nnpmAuthToken: "${fake(25, 40)}"\n`,
  },
  {
    tool: 'PyPI (twine)',
    category: 'registry',
    path: '.pypirc',
    content: `[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmc${fake(26, 120)}\n`,
  },
  { tool: 'RubyGems', category: 'registry', path: '.gem/credentials', content: `---\n:rubygems_api_key: rubygems_${fake(27, 48, HEX)}\n` },
  { tool: 'Cargo', category: 'registry', path: '.cargo/credentials.toml', content: `[registry]\ntoken = "cio${fake(28, 32)}"\n` },
  {
    tool: 'NuGet',
    category: 'registry',
    path: 'NuGet.Config',
    content: `<?xml version="1.0" encoding="utf-8"?>\n<configuration>\n  <packageSourceCredentials>\n    <acme>\n      <add key="Username" value="ci" />\n      <add key="ClearTextPassword" value="${pw(29)}" />\n    </acme>\n  </packageSourceCredentials>\n</configuration>\n`,
  },
  {
    tool: 'Maven',
    category: 'registry',
    path: '.m2/settings.xml',
    content: `<settings>\n  <servers>\n    <server>\n      <id>ossrh</id>\n      <username>acme</username>\n      <password>${pw(30)}</password>\n    </server>\n  </servers>\n</settings>\n`,
  },
  {
    tool: 'Gradle',
    category: 'registry',
    path: 'gradle.properties',
    content: `org.gradle.jvmargs=-Xmx2g\nossrhUsername=acme\nossrhPassword=${pw(31)}\n`,
  },
  {
    tool: 'Composer',
    category: 'registry',
    path: 'auth.json',
    content: JSON.stringify(
      { 'http-basic': { 'repo.acme.dev': { username: 'ci', password: pw(32) } }, 'github-oauth': { 'github.com': `ghp_${fake(33, 36)}` } },
      null,
      4,
    ),
  },
  {
    tool: 'Docker',
    category: 'container',
    path: '.docker/config.json',
    content: JSON.stringify({ auths: { 'registry.acme.dev': { auth: Buffer.from(`ci:${pw(34)}`).toString('base64') } } }, null, 2),
  },
  {
    tool: 'Helm',
    category: 'container',
    path: '.config/helm/repositories.yaml',
    content: `apiVersion: ""\nrepositories:\n- name: acme\n  url: https://charts.acme.dev\n  username: ci\n  password: ${pw(35)}\n`,
  },
  {
    tool: 'kubectl',
    category: 'container',
    path: '.kube/config',
    content: `apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: ${fake(36, 6, 'abcdefghijklmnopqrstuvwxyz0123456789')}.${fake(37, 16, 'abcdefghijklmnopqrstuvwxyz0123456789')}\n`,
  },
  // CI servers and CLIs
  {
    tool: 'Jenkins',
    category: 'ci',
    path: 'credentials.xml',
    content: `<?xml version='1.1' encoding='UTF-8'?>\n<com.cloudbees.plugins.credentials.SystemCredentialsProvider>\n  <domainCredentialsMap>\n    <entry>\n      <java.util.concurrent.CopyOnWriteArrayList>\n        <com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n          <id>deploy</id>\n          <username>deploy</username>\n          <password>{AQAAABAAAAAQ${fake(38, 44, B64)}=}</password>\n        </com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n      </java.util.concurrent.CopyOnWriteArrayList>\n    </entry>\n  </domainCredentialsMap>\n</com.cloudbees.plugins.credentials.SystemCredentialsProvider>\n`,
  },
  { tool: 'CircleCI CLI', category: 'ci', path: '.circleci/cli.yml', content: `host: https://circleci.com\ntoken: ${fake(39, 40, HEX)}\n` },
  {
    tool: 'GitLab Runner',
    category: 'ci',
    path: 'config.toml',
    content: `concurrent = 4\n\n[[runners]]\n  name = "shared"\n  url = "https://gitlab.acme.dev/"\n  token = "glrt-${fake(40, 20)}"\n  executor = "docker"\n`,
  },
  // infrastructure as code and secret managers
  {
    tool: 'Terraform CLI',
    category: 'iac',
    path: '.terraformrc',
    content: `credentials "app.terraform.io" {\n  token = "${fake(41, 14)}.atlasv1.${fake(42, 67)}"\n}\n`,
  },
  {
    tool: 'Terraform credentials.tfrc.json',
    category: 'iac',
    path: '.terraform.d/credentials.tfrc.json',
    content: JSON.stringify({ credentials: { 'app.terraform.io': { token: `${fake(43, 14)}.atlasv1.${fake(44, 67)}` } } }, null, 2),
  },
  {
    tool: 'Terraform variables',
    category: 'iac',
    path: 'prod.tfvars',
    content: `region      = "eu-west-1"\ndb_username = "app"\ndb_password = "${pw(45)}"\n`,
  },
  {
    tool: 'Pulumi',
    category: 'iac',
    path: '.pulumi/credentials.json',
    content: JSON.stringify(
      { current: 'https://api.pulumi.com', accessTokens: { 'https://api.pulumi.com': `pul-${fake(46, 40, HEX)}` } },
      null,
      4,
    ),
  },
  {
    tool: 'Ansible inventory',
    category: 'iac',
    path: 'inventory.ini',
    content: `[web]\nweb1.acme.dev ansible_user=deploy ansible_password=${pw(47)}\n`,
  },
  { tool: 'HashiCorp Vault', category: 'secrets', path: '.vault-token', content: `hvs.${fake(48, 24)}\n` },
  { tool: 'Rails credentials key', category: 'framework', path: 'config/master.key', content: `${fake(49, 32, HEX)}\n` },
  // FTP / SFTP clients
  {
    tool: 'Sublime SFTP',
    category: 'ftp',
    path: 'sftp-config.json',
    content: `{\n    "type": "sftp",\n    "host": "files.acme.dev",\n    "user": "deploy",\n    "password": "${pw(50)}",\n    "remote_path": "/var/www/"\n}\n`,
  },
  {
    tool: 'Atom remote-ftp',
    category: 'ftp',
    path: '.ftpconfig',
    content: `{\n  "protocol": "ftp",\n  "host": "ftp.acme.dev",\n  "user": "web",\n  "pass": "${pw(51)}"\n}\n`,
  },
  {
    tool: 'FileZilla',
    category: 'ftp',
    path: 'sitemanager.xml',
    content: `<?xml version="1.0" encoding="UTF-8"?>\n<FileZilla3>\n  <Servers>\n    <Server>\n      <Host>ftp.acme.dev</Host>\n      <Port>21</Port>\n      <User>web</User>\n      <Pass encoding="base64">${Buffer.from(pw(52)).toString('base64')}</Pass>\n    </Server>\n  </Servers>\n</FileZilla3>\n`,
  },
  {
    tool: 'WinSCP',
    category: 'ftp',
    path: 'WinSCP.ini',
    content: `[Sessions\\deploy@files.acme.dev]\nHostName=files.acme.dev\nUserName=deploy\nPassword=A35C${fake(53, 60, '0123456789ABCDEF')}\n`,
  },
  // mail clients
  {
    tool: 'fetchmail',
    category: 'mail',
    path: '.fetchmailrc',
    content: `poll imap.acme.dev protocol IMAP\n  user "joe" there with password "${pw(54)}" is joe here\n`,
  },
  {
    tool: 'msmtp',
    category: 'mail',
    path: '.msmtprc',
    content: `account default\nhost smtp.acme.dev\nport 587\nauth on\nuser joe@acme.dev\npassword ${pw(55)}\n`,
  },
  {
    tool: 'mutt',
    category: 'mail',
    path: '.muttrc',
    content: `set imap_user = "joe@acme.dev"\nset imap_pass = "${pw(56)}"\nset folder = "imaps://imap.acme.dev/"\n`,
  },
  {
    tool: 'OfflineIMAP',
    category: 'mail',
    path: '.offlineimaprc',
    content: `[Repository remote]\ntype = IMAP\nremotehost = imap.acme.dev\nremoteuser = joe\nremotepass = ${pw(57)}\n`,
  },
  // version control and hosting CLIs
  { tool: 'git credential store', category: 'vcs', path: '.git-credentials', content: `https://ci-bot:ghp_${fake(58, 36)}@github.com\n` },
  {
    tool: 'netrc (curl, Heroku, git)',
    category: 'vcs',
    path: '.netrc',
    content: `machine api.heroku.com\n  login joe@acme.dev\n  password ${fake(59, 36, HEX)}\n`,
  },
  {
    tool: 'GitHub CLI',
    category: 'vcs',
    path: '.config/gh/hosts.yml',
    content: `github.com:\n    oauth_token: gho_${fake(60, 36)}\n    user: joe\n    git_protocol: https\n`,
  },
  {
    tool: 'Subversion',
    category: 'vcs',
    path: '.subversion/auth/svn.simple/5671adf2865e267db74f09ba6f872c28',
    content: `K 8\npasscode\nV 18\n${fake(61, 18)}\nK 8\npassword\nV 20\n${pw(62)}\nK 15\nsvn:realmstring\nV 35\n<https://svn.acme.dev:443> ACME SVN\nK 8\nusername\nV 3\njoe\nEND\n`,
  },
  // keys and web servers
  {
    tool: 'OpenSSH',
    category: 'keys',
    path: '.ssh/id_ed25519',
    content: `-----BEGIN OPENSSH PRIVATE KEY-----\n${fake(63, 70, B64)}\n${fake(64, 70, B64)}\n${fake(65, 70, B64)}\n-----END OPENSSH PRIVATE KEY-----\n`,
  },
  {
    tool: 'PuTTY',
    category: 'keys',
    path: 'deploy.ppk',
    content: `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\n${fake(66, 64, B64)}\n${fake(67, 20, B64)}\nPrivate-Lines: 1\n${fake(68, 44, B64)}\nPrivate-MAC: ${fake(69, 64, HEX)}\n`,
  },
  {
    tool: 'Apache htpasswd',
    category: 'web',
    path: '.htpasswd',
    content: `admin:$apr1$${fake(70, 8)}$${fake(71, 22, B64.replace('+', '.'))}\n`,
  },
  // application frameworks and SaaS CLIs
  {
    tool: 'dotenv with an AWS key',
    category: 'framework',
    path: '.env',
    content: `AWS_REGION=eu-west-1\nAWS_ACCESS_KEY_ID=${awsId(72)}\nAWS_SECRET_ACCESS_KEY=${awsSecret(73)}\n`,
  },
  {
    tool: 'Google service account',
    category: 'cloud',
    path: 'deploy/sa.json',
    content: JSON.stringify(
      {
        type: 'service_account',
        project_id: 'acme-prod',
        private_key_id: fake(74, 40, HEX),
        private_key: `-----BEGIN PRIVATE KEY-----\n${fake(79, 64, B64)}\n${fake(80, 64, B64)}\n-----END PRIVATE KEY-----\n`,
        client_email: 'ci@acme-prod.iam.gserviceaccount.com',
      },
      null,
      2,
    ),
  },
  {
    tool: 'Sentry CLI',
    category: 'saas',
    path: '.sentryclirc',
    content: `[defaults]\norg = acme\n\n[auth]\ntoken = ${fake(75, 64, HEX)}\n`,
  },
  {
    tool: 'Vercel CLI',
    category: 'saas',
    path: '.vercel/auth.json',
    content: JSON.stringify({ '// Note': 'This is your Vercel credentials file. DO NOT SHARE!', token: fake(76, 24) }, null, 2),
  },
  {
    tool: 'Cloudflare Wrangler',
    category: 'saas',
    path: '.wrangler/config/default.toml',
    content: `oauth_token = "${fake(77, 43)}"\nrefresh_token = "${fake(78, 43)}"\nexpiration_time = "2026-12-06T07:00:00.000Z"\n`,
  },
];

export const BENIGN_FIXTURES: readonly CorpusFile[] = [
  // dotenv libraries' own fixtures
  {
    tool: 'dotenv',
    category: 'dotenv',
    path: 'tests/.env',
    content: `BASIC=basic\n\n# previous line intentionally left blank\nAFTER_LINE=after_line\nEMPTY=\nEMPTY_SINGLE_QUOTES=''\nSINGLE_QUOTES='single_quotes'\nDOUBLE_QUOTES="double_quotes"\nEXPAND_NEWLINES="expand\\nnew\\nlines"\nEQUAL_SIGNS=equals==\nRETAIN_INNER_QUOTES={"foo": "bar"}\nUSERNAME=therealnerdybeast@example.tld\n    SPACED_KEY = parsed\n`,
  },
  {
    tool: 'dotenv multiline',
    category: 'dotenv',
    path: 'tests/.env.multiline',
    content: `BASIC=basic\nMULTI_DOUBLE_QUOTED="THIS\nIS\nA\nMULTILINE\nSTRING"\nMULTI_PEM_DOUBLE_QUOTED="-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnNl1tL3QjKp3DZWM0T3u\n-----END PUBLIC KEY-----"\n`,
  },
  {
    tool: 'dotenv-expand',
    category: 'dotenv',
    path: 'tests/.env.local',
    content: `SECRET=xxx\nAPI_KEY=changeme\nEXPAND=$BASIC\nPASSWORD=\${DB_PASSWORD:-test}\n`,
  },
  {
    tool: 'app test env',
    category: 'dotenv',
    path: '.env.test',
    content: `NODE_ENV=test\nDATABASE_URL=postgres://postgres:postgres@localhost:5432/app_test\nJWT_SECRET=test-secret\nSESSION_SECRET=keyboard cat\n`,
  },
  {
    tool: 'dev env',
    category: 'dotenv',
    path: '.env.development',
    content: `API_URL=http://localhost:3000\nSTRIPE_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx\nAPI_TOKEN=dev-token\nDEBUG=true\n`,
  },
  {
    tool: 'Django dev env',
    category: 'dotenv',
    path: '.env',
    content: `DEBUG=1\nSECRET_KEY=django-insecure-change-me-in-production\nALLOWED_HOSTS=localhost\n`,
  },
  {
    tool: 'direnv',
    category: 'dotenv',
    path: '.envrc',
    content: `use nix\nexport DATABASE_URL=postgres://localhost/dev\nexport AWS_PROFILE=dev\n`,
  },
  { tool: 'Wrangler dev vars', category: 'dotenv', path: '.dev.vars', content: `API_TOKEN=local-dev-token\nENVIRONMENT=dev\n` },
  {
    tool: 'env template',
    category: 'dotenv',
    path: '.env.example',
    content: `DATABASE_PASSWORD=\nAWS_SECRET_ACCESS_KEY=your-secret-access-key\nGITHUB_TOKEN=<your token>\n`,
  },
  // config samples with placeholders and references
  {
    tool: 'Rails secrets',
    category: 'config',
    path: 'config/secrets.yml',
    content: `development:\n  secret_key_base: <%= ENV["SECRET_KEY_BASE"] %>\ntest:\n  secret_key_base: test\n`,
  },
  {
    tool: 'Rails database',
    category: 'config',
    path: 'config/database.yml',
    content: `default: &default\n  adapter: postgresql\n  username: postgres\n  password: <%= ENV['DB_PASSWORD'] %>\ntest:\n  <<: *default\n  password: postgres\n`,
  },
  {
    tool: 'Spring',
    category: 'config',
    path: 'src/test/resources/application.properties',
    content: `spring.datasource.url=jdbc:h2:mem:test\nspring.datasource.username=sa\nspring.datasource.password=secret\n`,
  },
  {
    tool: 'Maven sample',
    category: 'config',
    path: 'settings.xml',
    content: `<settings><servers><server><id>ossrh</id><username>\${env.OSSRH_USER}</username><password>\${env.OSSRH_PASSWORD}</password></server></servers></settings>\n`,
  },
  {
    tool: 'Terraform sample',
    category: 'config',
    path: 'terraform.tfvars',
    content: `db_password = "changeme"\napi_token   = "REPLACE_ME"\n`,
  },
  {
    tool: 'docker-compose',
    category: 'config',
    path: 'docker-compose.yml',
    content: `services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: example\n      POSTGRES_USER: postgres\n`,
  },
  {
    tool: 'secrets.json sample',
    category: 'config',
    path: 'secrets.json',
    content: `{\n  "apiKey": "YOUR_API_KEY",\n  "password": "test",\n  "token": "<token>"\n}\n`,
  },
  {
    tool: 'Google OAuth sample',
    category: 'config',
    path: 'credentials.json',
    content: `{"installed":{"client_id":"YOUR_CLIENT_ID.apps.googleusercontent.com","client_secret":"YOUR_CLIENT_SECRET","redirect_uris":["http://localhost"]}}\n`,
  },
  { tool: 'jwt.io default', category: 'config', path: 'fixtures/jwt.json', content: `{"alg": "HS256", "secret": "your-256-bit-secret"}\n` },
  { tool: 'MySQL test', category: 'config', path: '.my.cnf', content: `[client]\nuser=root\npassword=root\n` },
  { tool: 'Redis default', category: 'config', path: 'redis.conf', content: `port 6379\n# requirepass foobared\n` },
  {
    tool: 's3cmd defaults',
    category: 'config',
    path: '.s3cfg',
    content: `[default]\naccess_key = \nsecret_key = \nhost_base = localhost:9000\n`,
  },
  { tool: 'Vault dev root', category: 'config', path: '.vault-token', content: `root\n` },
  {
    tool: 'netrc fixture',
    category: 'config',
    path: 'test/fixtures/.netrc',
    content: `machine example.com\n  login user\n  password pass\n`,
  },
  {
    tool: 'pgpass fixture',
    category: 'config',
    path: 'test/fixtures/.pgpass',
    content: `localhost:5432:*:postgres:postgres\n*:*:*:test:test\n`,
  },
  {
    tool: 'git-credentials fixture',
    category: 'config',
    path: 'test/fixtures/.git-credentials',
    content: `https://user:pass@example.com\n`,
  },
  { tool: 'pypirc sample', category: 'config', path: '.pypirc', content: `[pypi]\nusername = __token__\npassword = <your PyPI token>\n` },
  {
    tool: 'npmrc with a reference',
    category: 'config',
    path: '.npmrc',
    content: `registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=\${NPM_TOKEN}\nsave-exact=true\n`,
  },
  {
    tool: 'msmtp sample',
    category: 'config',
    path: '.msmtprc',
    content: `account default\nhost localhost\nuser test\npassword changeme\n`,
  },
  {
    tool: 'Jenkins test fixture',
    category: 'config',
    path: 'src/test/resources/credentials.xml',
    content: `<credentials><username>admin</username><password>admin</password></credentials>\n`,
  },
  {
    tool: 'kubeconfig fixture',
    category: 'config',
    path: 'testdata/kubeconfig',
    content: `apiVersion: v1\nkind: Config\nusers:\n- name: test\n  user:\n    token: fake-token\n`,
  },
  // CI files, lock files, API specs, docs' example keys, public material
  {
    tool: 'GitHub workflow',
    category: 'ci',
    path: '.github/workflows/release.yml',
    content: `jobs:\n  publish:\n    steps:\n      - uses: actions/setup-node@v4\n        with:\n          token: \${{ secrets.GITHUB_TOKEN }}\n      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}\n`,
  },
  {
    tool: 'Travis encrypted',
    category: 'ci',
    path: '.travis.yml',
    content: `language: node_js\nenv:\n  global:\n    secure: "${fake(90, 344, B64)}"\n`,
  },
  {
    tool: 'OpenAPI spec',
    category: 'spec',
    path: 'secrets/openapi.yaml',
    content: `components:\n  securitySchemes:\n    oauth:\n      type: oauth2\n      flows:\n        clientCredentials:\n          tokenUrl: https://auth.example.com/oauth2/token\n    api_key:\n      type: apiKey\n      name: X-API-Key\n      in: header\n`,
  },
  {
    tool: 'npm lock',
    category: 'lock',
    path: 'package-lock.json',
    content: `{"packages":{"node_modules/ms":{"version":"2.1.3","resolved":"https://registry.npmjs.org/ms/-/ms-2.1.3.tgz","integrity":"sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA=="}}}\n`,
  },
  {
    tool: 'AWS docs example keys',
    category: 'docs',
    path: 'docs/.aws/credentials',
    content: `[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n`,
  },
  {
    tool: 'SSH public key',
    category: 'keys',
    path: '.ssh/id_rsa.pub',
    content: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${fake(91, 43, B64)} joe@laptop\n`,
  },
  {
    tool: 'TLS certificate',
    category: 'keys',
    path: 'certs/server.pem',
    content: `-----BEGIN CERTIFICATE-----\n${fake(92, 64, B64)}\n${fake(93, 64, B64)}\n-----END CERTIFICATE-----\n`,
  },
  {
    tool: 'password policy config',
    category: 'config',
    path: 'config/auth.yml',
    content: `password_min_length: 12\npassword_hash_algorithm: bcrypt-sha256\ntoken_ttl_seconds: 3600\nsecret_rotation: enabled\n`,
  },
  {
    tool: 'secrets folder README',
    category: 'docs',
    path: 'secrets/README.txt',
    content: `Put the deploy key here as deploy.key; it is ignored by git.\npassword: see the vault\n`,
  },
];

/*
 * HELD OUT. Written by the same rule after the content rules were built, with tools and fixtures that are
 * in neither list above, and run once against the finished rules before any change (docs/benchmarks.md
 * records that figure): the generalisation measure, not a fit.
 */
export const HELD_OUT_CREDENTIALS: readonly CorpusFile[] = [
  { tool: 'cqlsh', category: 'database', path: '.cassandra/cqlshrc', content: `[authentication]\nusername = app\npassword = ${pw(101)}\n` },
  {
    tool: 'InfluxDB CLI',
    category: 'database',
    path: '.influxdbv2/configs',
    content: `[default]\n  url = "http://localhost:8086"\n  token = "${fake(102, 86)}=="\n  org = "acme"\n  active = true\n`,
  },
  {
    tool: 'ClickHouse client',
    category: 'database',
    path: 'clickhouse-client.xml',
    content: `<config>\n  <user>etl</user>\n  <password>${pw(103)}</password>\n</config>\n`,
  },
  {
    tool: 'PgBouncer',
    category: 'database',
    path: 'userlist.txt',
    content: `"app" "SCRAM-SHA-256$4096:${fake(104, 24, B64)}$${fake(105, 44, B64)}:${fake(106, 44, B64)}"\n`,
  },
  {
    tool: 'Scaleway CLI',
    category: 'cloud',
    path: '.config/scw/config.yaml',
    content: `access_key: SCW${fake(107, 17, UPPER)}\nsecret_key: ${fake(108, 8, HEX)}-${fake(109, 4, HEX)}-${fake(110, 4, HEX)}-${fake(111, 4, HEX)}-${fake(112, 12, HEX)}\ndefault_region: fr-par\n`,
  },
  {
    tool: 'Alibaba Cloud CLI',
    category: 'cloud',
    path: '.aliyun/config.json',
    content: JSON.stringify(
      {
        current: 'default',
        profiles: [{ name: 'default', mode: 'AK', access_key_id: `LTAI${fake(113, 20)}`, access_key_secret: fake(114, 30) }],
      },
      null,
      2,
    ),
  },
  {
    tool: 'Hetzner hcloud',
    category: 'cloud',
    path: '.config/hcloud/cli.toml',
    content: `active_context = "prod"\n\n[[contexts]]\n  name = "prod"\n  token = "${fake(115, 64)}"\n`,
  },
  {
    tool: 'OpenStack clouds.yaml',
    category: 'cloud',
    path: 'clouds.yaml',
    content: `clouds:\n  prod:\n    auth:\n      auth_url: https://keystone.acme.dev:5000/v3\n      username: ops\n      password: ${pw(116)}\n      project_name: web\n`,
  },
  {
    tool: 'Exoscale CLI',
    category: 'cloud',
    path: '.config/exoscale/exoscale.toml',
    content: `defaultaccount = "acme"\n[[accounts]]\n  name = "acme"\n  key = "EXO${fake(117, 24, HEX)}"\n  secret = "${fake(118, 43)}"\n`,
  },
  {
    tool: 'pip',
    category: 'registry',
    path: '.config/pip/pip.conf',
    content: `[global]\nindex-url = https://ci:${pw(119)}@pypi.acme.dev/simple\n`,
  },
  {
    tool: 'Bundler',
    category: 'registry',
    path: '.bundle/config',
    content: `---\nBUNDLE_GEMS__CONTRIBSYS__COM: "${fake(120, 8, HEX)}:${fake(121, 8, HEX)}"\nBUNDLE_PATH: "vendor/bundle"\n`,
  },
  {
    tool: 'sbt',
    category: 'registry',
    path: '.sbt/.credentials',
    content: `realm=Sonatype Nexus Repository Manager\nhost=oss.sonatype.org\nuser=acme\npassword=${pw(122)}\n`,
  },
  {
    tool: 'Dart pub',
    category: 'registry',
    path: '.pub-cache/credentials.json',
    content: JSON.stringify({
      accessToken: `ya29.${fake(123, 120)}`,
      refreshToken: `1//0${fake(124, 100)}`,
      tokenEndpoint: 'https://accounts.google.com/o/oauth2/token',
      expiration: 1765000000000,
    }),
  },
  {
    tool: 'Argo CD CLI',
    category: 'ci',
    path: '.config/argocd/config',
    content: `contexts:\n- name: argocd.acme.dev\n  server: argocd.acme.dev\n  user: argocd.acme.dev\nusers:\n- auth-token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${fake(125, 120)}.${fake(126, 43)}\n  name: argocd.acme.dev\n`,
  },
  {
    tool: 'Concourse fly',
    category: 'ci',
    path: '.flyrc',
    content: `targets:\n  main:\n    api: https://ci.acme.dev\n    team: main\n    token:\n      type: bearer\n      value: ${fake(127, 40)}\n`,
  },
  {
    tool: 'Travis CLI',
    category: 'ci',
    path: '.travis/config.yml',
    content: `endpoints:\n  https://api.travis-ci.com/:\n    access_token: ${fake(128, 22)}\n`,
  },
  {
    tool: 'SOPS age key',
    category: 'iac',
    path: '.config/sops/age/keys.txt',
    content: `# created: 2026-12-01T10:00:00Z\n# public key: age1${fake(129, 58, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}\nAGE-SECRET-KEY-1${fake(130, 58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')}\n`,
  },
  { tool: 'Ansible vault password file', category: 'iac', path: '.vault_pass', content: `${fake(131, 32)}\n` },
  {
    tool: 'Remmina',
    category: 'remote',
    path: '.local/share/remmina/prod.remmina',
    content: `[remmina]\nname=prod\nprotocol=RDP\nserver=10.0.0.5\nusername=admin\npassword=${Buffer.from(pw(132)).toString('base64')}\n`,
  },
  {
    tool: 'lftp bookmarks',
    category: 'ftp',
    path: '.local/share/lftp/bookmarks',
    content: `prod\tsftp://deploy:${pw(133)}@files.acme.dev/var/www\n`,
  },
  {
    tool: 'Transmission',
    category: 'ftp',
    path: '.config/transmission-daemon/settings.json',
    content: `{\n    "rpc-authentication-required": true,\n    "rpc-password": "{${fake(134, 40, HEX)}${fake(135, 8)}",\n    "rpc-username": "admin"\n}\n`,
  },
  {
    tool: 'aerc',
    category: 'mail',
    path: '.config/aerc/accounts.conf',
    content: `[Work]\nsource = imaps://joe%40acme.dev:${pw(136)}@imap.acme.dev\noutgoing = smtps+plain://joe%40acme.dev@smtp.acme.dev\n`,
  },
  {
    tool: 'isync',
    category: 'mail',
    path: '.mbsyncrc',
    content: `IMAPAccount work\nHost imap.acme.dev\nUser joe@acme.dev\nPass ${pw(137)}\nSSLType IMAPS\n`,
  },
  {
    tool: 'getmail',
    category: 'mail',
    path: '.getmail/getmailrc',
    content: `[retriever]\ntype = SimpleIMAPSSLRetriever\nserver = imap.acme.dev\nusername = joe\npassword = ${pw(138)}\n`,
  },
  {
    tool: 'Mercurial',
    category: 'vcs',
    path: '.hgrc',
    content: `[auth]\nacme.prefix = https://hg.acme.dev\nacme.username = joe\nacme.password = ${pw(139)}\n`,
  },
  {
    tool: 'glab',
    category: 'vcs',
    path: '.config/glab-cli/config.yml',
    content: `hosts:\n    gitlab.com:\n        token: glpat-${fake(140, 20)}\n        api_protocol: https\n`,
  },
  {
    tool: 'Gitea tea',
    category: 'vcs',
    path: '.config/tea/config.yml',
    content: `logins:\n- name: acme\n  url: https://git.acme.dev\n  token: ${fake(141, 40, HEX)}\n  default: true\n`,
  },
  {
    tool: 'Slack webhook',
    category: 'saas',
    path: 'notify.conf',
    content: `webhook_url=https://hooks.slack.com/services/T${fake(142, 8, UPPER)}/B${fake(143, 10, UPPER)}/${fake(144, 24)}\n`,
  },
  {
    tool: 'Stripe CLI',
    category: 'saas',
    path: '.config/stripe/config.toml',
    content: `[default]\ndevice_name = "laptop"\ntest_mode_api_key = "sk_test_51${fake(145, 97)}"\nlive_mode_api_key = "rk_live_51${fake(146, 97)}"\n`,
  },
  {
    tool: 'Twilio CLI',
    category: 'saas',
    path: '.twilio-cli/config.json',
    content: JSON.stringify(
      { profiles: { acme: { accountSid: `AC${fake(147, 32, HEX)}`, apiKey: `SK${fake(148, 32, HEX)}`, apiSecret: fake(149, 32) } } },
      null,
      2,
    ),
  },
];

export const HELD_OUT_BENIGN: readonly CorpusFile[] = [
  {
    tool: 'python-dotenv fixture',
    category: 'dotenv',
    path: 'tests/fixtures/.env',
    content: `# a comment\nexport FOO=bar\nBAZ="quoted value"\nPASSWORD=hunter2\nEMPTY=\n`,
  },
  {
    tool: 'Laravel .env.testing',
    category: 'dotenv',
    path: '.env.testing',
    content: `APP_KEY=base64:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\nDB_CONNECTION=sqlite\nDB_PASSWORD=secret\nMAIL_PASSWORD=null\n`,
  },
  {
    tool: 'Next.js env sample',
    category: 'dotenv',
    path: '.env.local.sample',
    content: `NEXTAUTH_SECRET=generate-with-openssl-rand\nGITHUB_ID=\nGITHUB_SECRET=\n`,
  },
  {
    tool: 'cqlsh sample',
    category: 'config',
    path: 'conf/cqlshrc.sample',
    content: `[authentication]\n;; username = fred\n;; password = !!bang!!$\n`,
  },
  {
    tool: 'OpenStack test clouds.yaml',
    category: 'config',
    path: 'tests/clouds.yaml',
    content: `clouds:\n  devstack:\n    auth:\n      auth_url: http://127.0.0.1/identity\n      username: admin\n      password: password\n`,
  },
  {
    tool: 'Mercurial test hgrc',
    category: 'config',
    path: 'tests/.hgrc',
    content: `[auth]\nx.prefix = http://localhost\nx.username = user\nx.password = pass\n`,
  },
  {
    tool: 'mock server config',
    category: 'config',
    path: 'test/fixtures/credentials.yml',
    content: `users:\n  - name: alice\n    password: alice-password\n  - name: bob\n    password: bob123\n`,
  },
  {
    tool: 'Keycloak realm export',
    category: 'config',
    path: 'test/realm.json',
    content: `{"realm": "test", "clients": [{"clientId": "app", "secret": "**********"}], "users": [{"username": "test", "credentials": [{"type": "password", "value": "test"}]}]}\n`,
  },
  {
    tool: 'Helm values',
    category: 'config',
    path: 'charts/app/values.yaml',
    content: `postgresql:\n  auth:\n    username: app\n    password: ""\n    existingSecret: app-db\n    secretKeys:\n      adminPasswordKey: postgres-password\n`,
  },
  {
    tool: 'Kubernetes Secret manifest with refs',
    category: 'config',
    path: 'k8s/secret.yaml',
    content: `apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  DB_PASSWORD: \${DB_PASSWORD}\n  API_TOKEN: "{{ .Values.apiToken }}"\n`,
  },
  {
    tool: 'Ansible defaults',
    category: 'config',
    path: 'roles/db/defaults/main.yml',
    content: `db_user: app\ndb_password: "{{ vault_db_password }}"\ndb_port: 5432\n`,
  },
  { tool: 'nginx htpasswd doc', category: 'docs', path: 'secrets/htpasswd.txt', content: `Generate with: htpasswd -c .htpasswd admin\n` },
  {
    tool: 'Go testdata',
    category: 'testdata',
    path: 'testdata/config.toml',
    content: `[server]\ntoken = "test-token-123"\napi_key = "abc"\n`,
  },
  {
    tool: 'SAML metadata',
    category: 'config',
    path: 'config/saml/idp.xml',
    content: `<md:EntityDescriptor entityID="https://idp.example.com"><md:KeyDescriptor use="signing"><ds:X509Certificate>${fake(150, 120, B64)}</ds:X509Certificate></md:KeyDescriptor></md:EntityDescriptor>\n`,
  },
  {
    tool: 'yarn.lock',
    category: 'lock',
    path: 'yarn.lock',
    content: `ms@^2.1.1:\n  version "2.1.3"\n  resolved "https://registry.yarnpkg.com/ms/-/ms-2.1.3.tgz#574c8138ce1d2b5861f0b44579dbadd60c6615b2"\n  integrity sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA==\n`,
  },
  { tool: 'git sha file', category: 'data', path: 'REVISION', content: `${fake(151, 40, HEX)}\n` },
];
