// The Node flags the server runs with, for `npm start`, `npm run serve` (through scripts/node24.mjs)
// and the bench's broker processes, so what is measured is what runs.
//
// --max-semi-space-size=2: under a storm of connections V8 grows its young generation to 64-128 MB
// (every connection's objects survive their first scavenges) and keeps it resident afterwards, which
// was two thirds of the memory 10,000 idle connections cost. 2 MB semi-spaces keep that near 4 MB;
// the bench's throughput cases measured no slower with it.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=2']
