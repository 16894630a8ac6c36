// compat/statistics.cc: rocksdb/statistics.h's name maps, built from
// Strata's TickerName / HistogramName (RocksDB's names, enum order).
#include "rocksdb/statistics.h"

#include <string>
#include <utility>
#include <vector>

namespace rocksdb {

namespace {

std::vector<std::pair<Tickers, std::string>> MakeTickersNameMap() {
  std::vector<std::pair<Tickers, std::string>> out;
  for (uint32_t t = 0; t < TICKER_ENUM_MAX; t++) {
    out.emplace_back(static_cast<Tickers>(t), ::strata::TickerName(t));
  }
  return out;
}

std::vector<std::pair<Histograms, std::string>> MakeHistogramsNameMap() {
  std::vector<std::pair<Histograms, std::string>> out;
  for (uint32_t h = 0; h < HISTOGRAM_ENUM_MAX; h++) {
    out.emplace_back(static_cast<Histograms>(h), ::strata::HistogramName(h));
  }
  return out;
}

}  // namespace

const std::vector<std::pair<Tickers, std::string>> TickersNameMap = MakeTickersNameMap();
const std::vector<std::pair<Histograms, std::string>> HistogramsNameMap = MakeHistogramsNameMap();

}  // namespace rocksdb
