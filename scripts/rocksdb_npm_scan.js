// Prints every key of a database as "key : value" lines (as `strata scan`
// and `ldb scan` do), read by the RocksDB bundled in an npm package:
//   node rocksdb_npm_scan.js native <db>   rocksdb-native 3.18.1 (RocksDB 10.5.1)
//   node rocksdb_npm_scan.js nxt <db>      @nxtedition/rocksdb 12.2.12 (RocksDB 9.7.4)
// Used to check that RocksDB reads tables Strata writes at format_version
// 6 and 7 (testdata/README.md): diff its output with `strata --db=<db> scan`.
// Reads a copy: the bindings may write a new MANIFEST/OPTIONS on open.
async function main () {
  const [which, dir] = process.argv.slice(2)
  const out = []
  if (which === 'nxt') {
    const { RocksLevel } = require('@nxtedition/rocksdb')
    const db = new RocksLevel(dir, {})
    await db.open({ createIfMissing: false })
    for await (const [k, v] of db.iterator()) out.push(k + ' : ' + v)
    await db.close()
  } else {
    const RocksDB = require('rocksdb-native')
    const db = new RocksDB(dir, { createIfMissing: false })
    await db.ready()
    for await (const { key, value } of db.iterator({})) out.push(key.toString() + ' : ' + value.toString())
    process.stdout.write(out.join('\n') + '\n')
    await db.close()
    return
  }
  process.stdout.write(out.join('\n') + '\n')
}
main().catch((e) => { console.error('ERROR', e.message); process.exit(1) })
