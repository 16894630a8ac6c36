// Writes a small database with the RocksDB bundled in the npm package
// rocksdb-native 3.18.1 (holepunch; RocksDB v10.5.1) at the given table
// format_version: the fixtures of testdata/rocksdb-10.5.1 (testdata/README.md).
// Usage (from a directory where `npm install rocksdb-native@3.18.1` ran):
//   node rocksdb_npm_make_db.js <outdir> <format_version 6|7>   -> <outdir>/fv<N>
const RocksDB = require('rocksdb-native')
const path = require('path')
const fs = require('fs')

function key (i) { return 'key' + String(i).padStart(6, '0') }
function value (i) { return 'value-' + i + '-' + 'x'.repeat(i % 37) }

async function make (dir, fv) {
  fs.rmSync(dir, { recursive: true, force: true })
  const cf = new RocksDB.ColumnFamily('default', { tableFormatVersion: fv })
  const db = new RocksDB(dir, { columnFamily: cf, avoidFlushDuringShutdown: true })
  await db.ready()
  // The table: keys 0..399, every 50th deleted, one range deletion.
  let w = db.write()
  for (let i = 0; i < 400; i++) w.tryPut(key(i), value(i))
  await w.flush()
  w = db.write()
  for (let i = 0; i < 400; i += 50) w.tryDelete(key(i))
  w.tryDeleteRange(key(300), key(310))
  await w.flush()
  await db.flush()
  // Left in the WAL only: overwrites of keys 1..49 and new keys 400..449.
  // (avoidFlushDuringShutdown keeps them out of a table at close.)
  w = db.write()
  for (let i = 1; i < 50; i++) w.tryPut(key(i), 'new-' + value(i))
  for (let i = 400; i < 450; i++) w.tryPut(key(i), value(i))
  await w.flush()
  await db.close()
}

async function main () {
  const out = process.argv[2] || 'out'
  const fv = Number(process.argv[3] || 7)
  await make(path.join(out, "fv" + fv), fv)
  console.log("made", fv)
}
main().catch((e) => { console.error(e); process.exit(1) })
