// Writes a small database with the RocksDB bundled in @nxtedition/rocksdb
// 12.2.12 (RocksDB 9.7.4, with this binding's settings, among them
// wal_compression=kZSTD): testdata/rocksdb-9.7.4-wal-compression
// (testdata/README.md). Usage: node rocksdb_npm_make_wal_db.js <dir>
const { RocksLevel } = require('@nxtedition/rocksdb')
const fs = require('fs')
function key (i) { return 'key' + String(i).padStart(6, '0') }
function value (i) { return 'value-' + i + '-' + 'x'.repeat(i % 37) }
async function main () {
  const dir = process.argv[2] || 'out/nxt'
  fs.rmSync(dir, { recursive: true, force: true })
  const db = new RocksLevel(dir, {})
  await db.open()
  const ops = []
  for (let i = 0; i < 400; i++) ops.push({ type: 'put', key: key(i), value: value(i) })
  for (let i = 0; i < 400; i += 50) ops.push({ type: 'del', key: key(i) })
  await db.batch(ops)
  await db.close()
  console.log('made', dir)
}
main().catch((e) => { console.error(e); process.exit(1) })
