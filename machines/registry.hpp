// The registry of machine models: one explicit list, each with a description and its parameter
// declarations (design example 1). Tools call register_builtin_machines().
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "machines/machine_model.hpp"
#include "machines/param.hpp"

namespace augur::machines {

/// Everything the registry knows about one model.
struct MachineModelInfo {
  std::string name;               ///< "loggp_smp"
  std::string description;        ///< one paragraph
  std::vector<ParamSpec> params;  ///< common_params() + the model's own
  /// Builds an instance for `processors` processors. Throws ParamError on inconsistent values
  /// (e.g. a grid shape that does not hold the processors).
  std::function<std::unique_ptr<MachineModel>(const ParamSet&, int processors)> create;
  /// The type of `create`.
  using Factory = std::function<std::unique_ptr<MachineModel>(const ParamSet&, int processors)>;
};

/// Name → model. Lookup of an unknown name throws ParamError listing the valid names.
class MachineRegistry {
 public:
  void add(MachineModelInfo info);
  const MachineModelInfo* find(std::string_view name) const;
  /// Throws ParamError "unknown machine model 'x'; did you mean 'y'? Valid values are: …".
  const MachineModelInfo& get(std::string_view name) const;
  /// get(name).create(params, processors), logged on the machines folder's logger (info: the
  /// model and processors, debug: every parameter's value).
  std::unique_ptr<MachineModel> create(std::string_view name, const ParamSet& params, int processors) const;
  const std::vector<MachineModelInfo>& all() const { return models_; }

 private:
  std::vector<MachineModelInfo> models_;
};

/// The parameters of `info` at their defaults, named after the model in errors
/// ("unknown parameter 'latncy' of machine model 'loggp_smp'; did you mean 'latency'?").
ParamSet make_params(const MachineModelInfo& info);

/// Adds bus, transputer_grid, loggp_smp, dvm_cluster, flow_network and simgrid_platform.
void register_builtin_machines(MachineRegistry& registry);

}  // namespace augur::machines
