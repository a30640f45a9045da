/**
 * The program the keyring runner starts in a child process (as `node -e`), so that a native call blocked
 * on a D-Bus that never answers can be ended by killing the child. It reads one JSON request per line on
 * stdin and writes one JSON answer per line on stdout. It never writes a secret anywhere but that answer.
 * argv: the path of @napi-rs/keyring's entry, read from the last entry (Deno's `-e` puts its eval file in argv[1]).
 */
export const KEYRING_CHILD = String.raw`
const keyring = require(process.argv[process.argv.length - 1]);
const pin = { linux: { store: 'secret-service' } };
const entry = (service, account) => new keyring.Entry(service, account, pin);
function run(request) {
  switch (request.op) {
    case 'get': return entry(request.service, request.account).getPassword();
    case 'set': entry(request.service, request.account).setPassword(request.secret); return null;
    case 'delete': return entry(request.service, request.account).deletePassword();
    case 'list': {
      // A pinned read first: without a Secret Service it fails here instead of listing another store.
      entry(request.service, '\u0000probe').getPassword();
      return keyring.findCredentials(request.service).map((c) => c.account);
    }
    default: throw new Error('unknown op');
  }
}
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    let request;
    try { request = JSON.parse(line); } catch { continue; }
    let answer;
    try { answer = { id: request.id, ok: true, value: run(request) }; }
    catch (error) { answer = { id: request.id, ok: false, code: String(error && error.code || ''), message: String(error && error.message || error).slice(0, 500) }; }
    process.stdout.write(JSON.stringify(answer) + '\n');
  }
});
process.stdin.on('end', () => process.exit(0));
`;
