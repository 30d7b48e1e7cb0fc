// Shard files: writing (augur run --shard) and reading them back together (augur merge).
#include "tools/merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/output_file.hpp"
#include "models/report/result_json.hpp"
#include "tools/help.hpp"

namespace augur::tools {
namespace {

using nlohmann::json;

constexpr const char* shard_format = "augur shard";

std::size_t shard_number(const std::string& text, const std::string& whole) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (text.empty() || text.size() > 6 || !std::all_of(text.begin(), text.end(), digit))
    throw std::invalid_argument(fmt::format("--shard: '{}' is not K/N (shard K of N, 0 <= K < N: 0/4 ... 3/4)", whole));
  return std::stoul(text);
}

ShardRun header_from_json(const json& j) {
  ShardRun run;
  run.scenario = j.at("scenario").get<std::string>();
  run.run = j.at("run").get<std::string>();
  run.shard.index = j.at("shard").get<std::size_t>();
  run.shard.count = j.at("shards").get<std::size_t>();
  run.variants = j.at("variants").get<std::size_t>();
  run.json = j.at("json").get<std::string>();
  run.text = j.at("text").get<std::string>();
  return run;
}

/// One shard file: its header and results; throws "FILE: error: …".
MergedRun read_shard(const std::string& path) {
  const auto bad = [&](const std::string& why) { return std::runtime_error(fmt::format("{}: error: {}", path, why)); };
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad("cannot open the shard file");
  MergedRun m;
  try {
    const json j = json::parse(in);
    if (!j.is_object() || j.value("format", "") != shard_format)
      throw bad("not a shard file of augur run --shard (no \"format\": \"augur shard\")");
    if (j.at("augur") != version())
      throw bad(fmt::format("written by augur {}, this is augur {}: run every shard with the same augur",
                            j.at("augur").dump(), version()));
    m.run = header_from_json(j);
    for (const json& r : j.at("results")) m.results.push_back(models::report::result_from_json(r));
  } catch (const json::exception& e) {
    throw bad(fmt::format("not a readable shard file: {}", e.what()));
  } catch (const std::invalid_argument& e) {
    throw bad(fmt::format("not a readable shard file: {}", e.what()));
  }
  const ShardRun& h = m.run;
  if (h.shard.count == 0 || h.shard.index >= h.shard.count || h.shard.count > h.variants)
    throw bad(fmt::format("shard {}/{} of {} variants is not a shard", h.shard.index, h.shard.count, h.variants));
  std::size_t expected = h.shard.index + 1;
  for (const auto& r : m.results) {
    if (static_cast<std::size_t>(r.index) != expected)
      throw bad(fmt::format("shard {}/{} holds variant {} where variant {} belongs", h.shard.index, h.shard.count,
                            r.index, expected));
    expected += h.shard.count;
  }
  if (expected <= h.variants) throw bad(fmt::format("variant {} is missing", expected));
  return m;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw std::invalid_argument(fmt::format("--shard: '{}' is not K/N", text));
  Shard s{shard_number(text.substr(0, slash), text), shard_number(text.substr(slash + 1), text)};
  if (s.count == 0 || s.index >= s.count)
    throw std::invalid_argument(
        fmt::format("--shard: '{}': shard {} of {} does not exist (K is 0 to N - 1)", text, s.index, s.count));
  return s;
}

void check_shard(const Shard& shard, std::size_t variants) {
  if (shard.count > variants)
    throw std::invalid_argument(fmt::format(
        "--shard: {}/{}: the scenario has {} variant{}, fewer than {} shards (some would run nothing; N at most {})",
        shard.index, shard.count, variants, variants == 1 ? "" : "s", shard.count, variants));
}

std::string run_key(const std::vector<std::string>& args) {
  std::string key;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string name = a.substr(0, a.find('='));
    if (name == "--shard" || name == "--partial" || name == "--jobs" || name == "-j" || name == "--log") {
      if (name == a) ++i;  // the value is the next argument
      continue;
    }
    key += (key.empty() ? "" : " ") + a;
  }
  return key;
}

void write_shard_file(const std::string& path, const ShardRun& run,
                      const std::vector<models::report::VariantResult>& results) {
  json j;
  j["format"] = shard_format;
  j["augur"] = version();
  j["scenario"] = run.scenario;
  j["run"] = run.run;
  j["shard"] = run.shard.index;
  j["shards"] = run.shard.count;
  j["variants"] = run.variants;
  j["json"] = run.json;
  j["text"] = run.text;
  j["results"] = json::array();
  for (const auto& r : results) j["results"].push_back(models::report::result_to_json(r));
  engine::OutputFile f(path, "shard file");
  f.stream() << j.dump() << "\n";
  f.commit();
}

MergedRun read_shards(const std::vector<std::string>& paths) {
  if (paths.empty()) throw std::runtime_error("augur: error: merge needs the shard files (augur run --shard K/N)");
  std::vector<MergedRun> shards;
  for (const std::string& p : paths) shards.push_back(read_shard(p));
  MergedRun merged;
  merged.run = shards.front().run;
  merged.run.shard.index = 0;
  const std::size_t n = merged.run.shard.count;
  std::vector<std::string> seen(n);  // the file of each shard
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const ShardRun& h = shards[i].run;
    const auto bad = [&](const std::string& why) {
      return std::runtime_error(fmt::format("{}: error: {}", paths[i], why));
    };
    if (h.run != merged.run.run || h.scenario != merged.run.scenario || h.variants != merged.run.variants ||
        h.shard.count != n || h.json != merged.run.json || h.text != merged.run.text)
      throw bad(fmt::format("a shard of another run than {} ('{}', shards of {}, not '{}', shards of {})", paths[0],
                            h.run, h.shard.count, merged.run.run, n));
    if (!seen[h.shard.index].empty())
      throw bad(fmt::format("shard {}/{} again (also {})", h.shard.index, n, seen[h.shard.index]));
    seen[h.shard.index] = paths[i];
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (seen[k].empty())
      throw std::runtime_error(
          fmt::format("{}: error: shard {}/{} is missing: merge needs all {} shards of the run", paths[0], k, n, n));
  }
  merged.results.resize(merged.run.variants);
  for (auto& s : shards) {
    for (auto& r : s.results) merged.results[static_cast<std::size_t>(r.index - 1)] = std::move(r);
  }
  return merged;
}

}  // namespace augur::tools
