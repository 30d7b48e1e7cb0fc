// Sharded sweeps: `augur run SCENARIO --shard K/N --partial FILE` runs a share of the variants
// and writes their results (models/report/result_json.hpp) to a shard file; `augur merge FILE…`
// reads the N shard files back into every variant's result, in variant order, for the writers
// of a single run — so the merged reports equal a single `augur run`'s byte for byte.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "models/report/report.hpp"

namespace augur::tools {

/// `--shard K/N`: shard K (0 ≤ K < N) of N runs the variants whose 0-based position is K mod N.
struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
};

/// Reads "K/N" (decimal, 0 ≤ K < N); throws std::invalid_argument naming --shard.
Shard parse_shard(const std::string& text);

/// Throws std::invalid_argument when a scenario of `variants` variants cannot be split so
/// (N more than the variants: some shard would run nothing).
void check_shard(const Shard& shard, std::size_t variants);

/// What identifies the run a shard belongs to: the command line without the options that do not
/// change its results (--shard, --partial, --jobs, --log). Shards of one merge must agree on it.
std::string run_key(const std::vector<std::string>& args);

/// The header of a shard file.
struct ShardRun {
  std::string scenario;  ///< the scenario's name (what the reports are titled)
  std::string run;       ///< run_key of the command line
  Shard shard;
  std::size_t variants = 0;  ///< variants of the whole scenario
  std::string json;          ///< the JSON report a single run would write (the scenario's outputs.json)
  std::string text;          ///< likewise the text report (outputs.text)
};

/// Writes the shard file (JSON: format "augur shard", augur's version, the header, the results).
void write_shard_file(const std::string& path, const ShardRun& run,
                      const std::vector<models::report::VariantResult>& results);

/// The shard files read back together.
struct MergedRun {
  ShardRun run;                                        ///< the shards' common header (shard: 0/N)
  std::vector<models::report::VariantResult> results;  ///< every variant, in variant order
};

/// Reads the shard files of one run, by the same augur, every shard once. Throws
/// std::runtime_error "FILE: error: …" for a file that is not such a shard or a shard missing.
MergedRun read_shards(const std::vector<std::string>& paths);

}  // namespace augur::tools
