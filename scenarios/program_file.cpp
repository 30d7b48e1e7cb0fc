// The skeleton file format (program_file.hpp): a map of name, parameters and program; each phase
// a one-key map (or a bare collective name such as `- barrier`).
#include "scenarios/program_file.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "machines/roofline/roofline.hpp"
#include "scenarios/machine_file.hpp"
#include "scenarios/yaml_util.hpp"

namespace augur::scenarios {
namespace {

using detail::Entry;
using detail::fail_at;
using detail::MapReader;
using traces::MpOpKind;
using traces::skeleton::Expr;
using traces::skeleton::ExprError;
using traces::skeleton::Phase;
using traces::skeleton::PhaseKind;
using traces::skeleton::Program;
using traces::skeleton::SourcePos;

/// A phase keyword, what it makes and its keys (the first `required` of them are required).
struct PhaseSyntax {
  std::string_view name;
  PhaseKind kind;
  MpOpKind op;
  std::vector<std::string> keys;
  std::size_t required;
};

const std::vector<PhaseSyntax>& phase_syntax() {
  static const std::vector<PhaseSyntax> table = {
      {"compute", PhaseKind::compute, MpOpKind::compute, {"flops", "bytes", "loads", "stores", "math"}, 1},
      {"halo", PhaseKind::halo, MpOpKind::compute, {"bytes", "dims", "grid", "periodic"}, 1},
      {"ring", PhaseKind::ring, MpOpKind::compute, {"bytes", "tag"}, 1},
      {"pairwise", PhaseKind::pairwise, MpOpKind::compute, {"bytes"}, 1},
      {"p2p", PhaseKind::p2p, MpOpKind::compute, {"bytes", "to", "from", "tag"}, 1},
      {"loop", PhaseKind::loop, MpOpKind::compute, {"count", "body"}, 2},
      {"region", PhaseKind::region, MpOpKind::compute, {"name", "body"}, 2},
      {"barrier", PhaseKind::collective, MpOpKind::barrier, {}, 0},
      {"bcast", PhaseKind::collective, MpOpKind::bcast, {"bytes", "root"}, 1},
      {"reduce", PhaseKind::collective, MpOpKind::reduce, {"bytes", "flops", "root"}, 1},
      {"allreduce", PhaseKind::collective, MpOpKind::allreduce, {"bytes", "flops"}, 1},
      {"alltoall", PhaseKind::collective, MpOpKind::alltoall, {"bytes"}, 1},
      {"gather", PhaseKind::collective, MpOpKind::gather, {"bytes", "root"}, 1},
      {"scatter", PhaseKind::collective, MpOpKind::scatter, {"bytes", "root"}, 1},
      {"allgather", PhaseKind::collective, MpOpKind::allgather, {"bytes"}, 1},
      {"reduce_scatter", PhaseKind::collective, MpOpKind::reduce_scatter, {"bytes", "flops"}, 1},
      {"scan", PhaseKind::collective, MpOpKind::scan, {"bytes", "flops"}, 1},
      {"exscan", PhaseKind::collective, MpOpKind::exscan, {"bytes", "flops"}, 1},
  };
  return table;
}

std::vector<std::string> phase_names() {
  std::vector<std::string> names;
  for (const PhaseSyntax& s : phase_syntax()) names.emplace_back(s.name);
  return names;
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) != 0 || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

class ProgramReader {
 public:
  ProgramReader(std::string file, Program& program) : file_(std::move(file)), program_(program) {}

  void parameters(const Entry& entry) {
    const MapReader map(file_, entry.value, "'parameters'", entry.key_node);
    static const std::vector<std::string> reserved = {"P",   "rank", "dim0",  "dim1", "dim2", "min",
                                                      "max", "ceil", "floor", "log2", "sqrt", "if"};
    for (const Entry& p : map.entries()) {
      if (!is_identifier(p.key))
        fail_at(file_, p.key_node, "'" + p.key + "' is not a parameter name (letters, digits, _)");
      if (std::find(reserved.begin(), reserved.end(), p.key) != reserved.end())
        fail_at(file_, p.key_node, "'" + p.key + "' is reserved (P, rank, dim0..dim2 and the function names)");
      program_.names.push_back(p.key);
    }
    program_.names.insert(program_.names.end(), {"P", "rank"});
    halo_names_ = traces::skeleton::halo_names(program_.names);
    const std::size_t p_index = map.entries().size();
    for (std::size_t i = 0; i < map.entries().size(); ++i) {
      const Entry& p = map.entries()[i];
      Expr e = expr(p.value, p.key_node, program_.names);
      for (std::size_t later = i; later < program_.names.size(); ++later) {
        if (later != p_index && e.uses(later))
          fail_at(file_, p.value,
                  "the default of '" + p.key + "' uses '" + program_.names[later] +
                      "' (a default may use the parameters before it and P)");
      }
      program_.defaults.push_back(std::move(e));
    }
  }

  void no_parameters() {
    program_.names = {"P", "rank"};
    halo_names_ = traces::skeleton::halo_names(program_.names);
  }

  std::vector<Phase> phases(const YAML::Node& list, const YAML::Node& owner, std::string_view what) {
    if (!list.IsSequence())
      fail_at(file_, list.IsNull() ? owner : list,
              "expected a list of phases for '" + std::string(what) + "', found " + detail::describe_type(list));
    if (list.size() == 0) fail_at(file_, list, "'" + std::string(what) + "' has no phases");
    std::vector<Phase> result;
    for (const YAML::Node& item : list) result.push_back(phase(item));
    return result;
  }

 private:
  Phase phase(const YAML::Node& item) {
    // yaml-cpp's Node::operator= writes into the node referred to: nodes here are only constructed.
    const bool one_key = item.IsMap() && item.size() == 1;
    if (!item.IsScalar() && !one_key) {
      fail_at(file_, item,
              "expected a phase: a map of one key (compute, halo, loop, allreduce, ...), found " +
                  (item.IsMap() ? "a map of " + std::to_string(item.size()) + " keys" : detail::describe_type(item)));
    }
    const YAML::Node key_node = one_key ? item.begin()->first : item;
    const YAML::Node fields = one_key ? item.begin()->second : YAML::Node();
    const std::string keyword = key_node.IsScalar() ? key_node.Scalar() : std::string();
    const auto& table = phase_syntax();
    const auto s = std::find_if(table.begin(), table.end(), [&](const PhaseSyntax& p) { return p.name == keyword; });
    if (s == table.end()) fail_at(file_, key_node, detail::unknown_message(keyword, phase_names(), "phase"));
    Phase phase;
    phase.kind = s->kind;
    phase.op = s->op;
    const YAML::Mark mark = key_node.Mark();
    phase.at = SourcePos{file_, mark.line + 1, mark.column + 1};
    if (s->keys.empty()) {
      if (fields.IsDefined() && !fields.IsNull() && !(fields.IsMap() && fields.size() == 0))
        fail_at(file_, fields, "'" + keyword + "' takes no fields");
      return phase;
    }
    if (!fields.IsDefined() || fields.IsNull())
      fail_at(file_, key_node, "'" + keyword + "' needs its fields: " + support::join(s->keys));
    const MapReader map(file_, fields, "'" + keyword + "'", key_node);
    map.allow_only(s->keys);
    for (std::size_t i = 0; i < s->required; ++i) map.require(s->keys[i]);
    fill(phase, map);
    return phase;
  }

  void fill(Phase& phase, const MapReader& map) {
    for (const Entry& e : map.entries()) {
      if (e.key == "flops") phase.flops = expr(e.value, e.key_node, program_.names);
      if (e.key == "root") phase.root = expr(e.value, e.key_node, program_.names);
      if (e.key == "to") phase.to = expr(e.value, e.key_node, program_.names);
      if (e.key == "from") phase.from = expr(e.value, e.key_node, program_.names);
      if (e.key == "count") phase.count = expr(e.value, e.key_node, program_.names);
      if (e.key == "tag") phase.tag = detail::positive_int(file_, e.value, "tag");
      if (e.key == "name") phase.name = detail::scalar_value(file_, e);
      if (e.key == "body") phase.body = phases(e.value, e.key_node, "body");
      if (e.key == "periodic") phase.periodic = boolean(e);
      if (e.key == "bytes") bytes(phase, e);
      if (e.key == "loads") phase.loads = expr(e.value, e.key_node, program_.names);
      if (e.key == "stores") phase.stores = expr(e.value, e.key_node, program_.names);
      if (e.key == "math") math(phase, e);
      if (e.key == "dims") {
        phase.ndims = detail::positive_int(file_, e.value, "dimension count");
        if (phase.ndims > traces::skeleton::max_halo_dims) fail_at(file_, e.value, "a halo has 1 to 3 dimensions");
      }
      if (e.key == "grid") grid(phase, e);
    }
    if (phase.kind == PhaseKind::halo) check_halo(phase, map);
    if (phase.kind == PhaseKind::p2p && map.find("to") == nullptr && map.find("from") == nullptr)
      fail_at(file_, map.require("bytes").key_node, "a p2p phase needs 'to', 'from' or both");
  }

  void bytes(Phase& phase, const Entry& e) {
    if (phase.kind == PhaseKind::compute && e.value.IsMap()) {
      level_bytes(phase, e);
      return;
    }
    if (phase.kind != PhaseKind::halo) {
      phase.bytes = expr(e.value, e.key_node, program_.names);
      return;
    }
    if (!e.value.IsSequence()) {
      phase.faces = {expr(e.value, e.key_node, halo_names_)};
      return;
    }
    for (const YAML::Node& face : e.value) phase.faces.push_back(expr(face, e.key_node, halo_names_));
  }

  /// A compute phase's `bytes: {L1: EXPR, DRAM: EXPR}`: memory traffic per level of the node
  /// (names checked against the machine when it is known: check_memory_levels).
  void level_bytes(Phase& phase, const Entry& e) {
    const MapReader map(file_, e.value, "'bytes'", e.key_node);
    if (map.entries().empty()) fail_at(file_, e.value, "'bytes' names no memory level (give a map such as {L1: 8B})");
    for (const Entry& level : map.entries()) {
      auto known = std::find(program_.levels.begin(), program_.levels.end(), level.key);
      if (known == program_.levels.end()) {
        const YAML::Mark mark = level.key_node.Mark();
        program_.levels.push_back(level.key);
        program_.level_at.push_back(SourcePos{file_, mark.line + 1, mark.column + 1});
        known = program_.levels.end() - 1;
      }
      const auto index = static_cast<std::size_t>(known - program_.levels.begin());
      phase.level_bytes.emplace_back(index, expr(level.value, level.key_node, program_.names));
    }
  }

  /// `math: {sin: EXPR, ...}`: calls per math function (machines::MathFn names).
  void math(Phase& phase, const Entry& e) {
    static_assert(machines::kMathFnCount == traces::kMathCallKinds, "MpRecord counts follow machines::MathFn");
    const MapReader map(file_, e.value, "'math'", e.key_node);
    phase.math.assign(machines::kMathFnCount, Expr::constant(0));
    for (const Entry& call : map.entries()) {
      machines::MathFn fn{};
      if (!machines::parse_math_fn(call.key, fn)) {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < machines::kMathFnCount; ++i)
          names.emplace_back(machines::math_fn_name(static_cast<machines::MathFn>(i)));
        fail_at(file_, call.key_node, detail::unknown_message(call.key, names, "math function"));
      }
      phase.math[static_cast<std::size_t>(fn)] = expr(call.value, call.key_node, program_.names);
    }
  }

  void grid(Phase& phase, const Entry& e) {
    if (!e.value.IsSequence() || e.value.size() == 0 || e.value.size() > traces::skeleton::max_halo_dims)
      fail_at(file_, e.value.IsNull() ? e.key_node : e.value, "expected a list of 1 to 3 grid extents for 'grid'");
    for (const YAML::Node& d : e.value) phase.dims.push_back(expr(d, e.key_node, program_.names));
    for (const Expr& d : phase.dims)
      if (d.uses(program_.names.size() - 1)) fail_at(file_, e.value, "a grid extent cannot depend on 'rank'");
  }

  void check_halo(Phase& phase, const MapReader& map) {
    const Entry* dims = map.find("dims");
    const Entry* grid = map.find("grid");
    if ((dims == nullptr) == (grid == nullptr))
      fail_at(file_, map.require("bytes").key_node,
              "a halo needs either 'dims' (a balanced grid, as MPI_Dims_create) or 'grid' (its extents)");
    const int n = grid != nullptr ? static_cast<int>(phase.dims.size()) : phase.ndims;
    phase.ndims = n;
    if (phase.faces.size() != 1 && static_cast<int>(phase.faces.size()) != n)
      fail_at(file_, map.require("bytes").value,
              "'bytes' has " + std::to_string(phase.faces.size()) + " face sizes for a grid of " + std::to_string(n) +
                  " dimensions (give one, or one per dimension)");
  }

  bool boolean(const Entry& e) {
    const std::string text = detail::scalar_value(file_, e);
    if (text == "true") return true;
    if (text == "false") return false;
    fail_at(file_, e.value, "expected true or false for '" + e.key + "', found '" + text + "'");
  }

  Expr expr(const YAML::Node& node, const YAML::Node& key, const std::vector<std::string>& names) {
    if (!node.IsScalar())
      fail_at(file_, node.IsNull() || !node.IsDefined() ? key : node,
              "expected an expression, found " + detail::describe_type(node));
    const YAML::Mark mark = node.Mark();
    // A quoted scalar's text starts one column after its mark (yaml-cpp tags it "!").
    const int quote = node.Tag() == "!" ? 1 : 0;
    try {
      return Expr::parse(node.Scalar(), SourcePos{file_, mark.line + 1, mark.column + 1 + quote}, names);
    } catch (const ExprError& e) {  // as a ConfigError, which with_positions knows
      throw ConfigError(e.at().file, e.at().line, e.at().column, e.message());
    }
  }

  std::string file_;
  Program& program_;
  std::vector<std::string> halo_names_;
};

std::shared_ptr<const Program> read_program(const detail::Document& document) {
  const std::string& file = document.file;
  const MapReader root(file, document.root, "the program");
  root.allow_only({"schema_version", "name", "parameters", "program"});
  if (const Entry* version = root.find("schema_version")) detail::check_schema_version(file, *version);
  auto program = std::make_shared<Program>();
  program->file = file;
  if (const Entry* name = root.find("name")) program->name = detail::scalar_value(file, *name);
  ProgramReader reader(file, *program);
  if (const Entry* parameters = root.find("parameters")) {
    reader.parameters(*parameters);
  } else {
    reader.no_parameters();
  }
  const Entry& phases = root.require("program");
  program->phases = reader.phases(phases.value, phases.key_node, "program");
  return program;
}

}  // namespace

std::shared_ptr<const Program> load_program_text(const std::string& text, const std::string& file) {
  return detail::with_positions([&] { return read_program(detail::parse_text(text, file)); });
}

std::shared_ptr<const Program> load_program_file(const std::string& path) {
  return load_program_text(detail::read_config_file(path), path);
}

double program_value(const std::string& text, const std::string& file, const std::string& key) {
  try {
    return Expr::parse(text, SourcePos{key, 1, 1}, {}).eval({});
  } catch (const ExprError& e) {
    throw ConfigError(file, 0, 0, "invalid value '" + text + "' for '" + key + "': " + e.message());
  }
}

}  // namespace augur::scenarios
