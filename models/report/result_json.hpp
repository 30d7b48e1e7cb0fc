// A variant's result as JSON that reads back into the same VariantResult: every field, the
// interval tree with its ids, columns and totals, doubles exactly (the shortest text that reads
// back to the same bits; non-finite ones as "inf", "-inf", "nan"). What `augur run --shard`
// writes and `augur merge` reads, so that the merged reports come from the same writers as a
// single run's and equal them byte for byte. Not the JSON report (report.hpp), whose keys are
// documented and stable; this one changes with VariantResult.
#pragma once
#include <nlohmann/json.hpp>

#include "models/report/report.hpp"

namespace augur::models::report {

/// Every field of `v`.
nlohmann::json result_to_json(const VariantResult& v);

/// The result result_to_json wrote. Throws std::invalid_argument saying what is wrong with a
/// document it did not write (a missing key, a value of the wrong kind, an inconsistent tree).
VariantResult result_from_json(const nlohmann::json& j);

}  // namespace augur::models::report
