// DvmCall: parameter lookup (a linear scan: a call has a few dozen parameters at most), typed
// access with on-demand conversion of text values, and the one-line description.
#include "traces/libdvm/dvm_call.hpp"

#include <charconv>
#include <stdexcept>

#include "traces/libdvm/dvm_text.hpp"
#include "traces/trace_error.hpp"

namespace augur::traces::libdvm {
namespace {

const char* kind_name(DvmParamKind kind) {
  switch (kind) {
    case DvmParamKind::handle:
      return "a hexadecimal handle";
    case DvmParamKind::integer:
      return "a decimal integer";
    case DvmParamKind::real:
      return "a real";
    case DvmParamKind::text:
      return "text";
  }
  return "?";
}

const char* side_name(DvmSide side) { return side == DvmSide::call ? "call side" : "ret side"; }

[[noreturn]] void wrong_kind(std::string_view accessor, std::string_view name, DvmParamKind kind) {
  throw std::logic_error("DvmCall::" + std::string(accessor) + ": parameter '" + std::string(name) + "' is read as " +
                         kind_name(kind));
}

void append_hex(std::string& out, std::uint64_t value) {
  char buffer[24];
  const auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, 16);
  out.append(buffer, ptr);
}

template <typename T>
void append_number(std::string& out, T value) {
  char buffer[64];
  const auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, ptr);
}

void append_param(std::string& out, const DvmParamView& param) {
  out += ' ';
  out += param.name();
  out += '=';
  if (param.is_array()) out += '[';
  for (std::size_t i = 0; i < param.size(); ++i) {
    if (i > 0) out += ',';
    switch (param.kind()) {
      case DvmParamKind::handle:
        append_hex(out, param.handles()[i]);
        break;
      case DvmParamKind::integer:
        append_number(out, param.integers()[i]);
        break;
      case DvmParamKind::real:
        append_number(out, param.reals()[i]);
        break;
      case DvmParamKind::text:
        out += param.text(i);
        break;
    }
  }
  if (param.is_array()) out += ']';
  if (param.marker() == DvmPatternType::am_view) out += " (AMView)";
  if (param.marker() == DvmPatternType::dis_array) out += " (DisArray)";
}

}  // namespace

std::string_view DvmParamView::name() const {
  return std::string_view(call_->chars_).substr(slot_->name_offset, slot_->name_size);
}

std::span<const std::uint64_t> DvmParamView::handles() const {
  if (slot_->kind != DvmParamKind::handle) return {};
  return std::span<const std::uint64_t>(call_->handles_).subspan(slot_->first, slot_->count);
}

std::span<const std::int64_t> DvmParamView::integers() const {
  if (slot_->kind != DvmParamKind::integer) return {};
  return std::span<const std::int64_t>(call_->integers_).subspan(slot_->first, slot_->count);
}

std::span<const double> DvmParamView::reals() const {
  if (slot_->kind != DvmParamKind::real) return {};
  return std::span<const double>(call_->reals_).subspan(slot_->first, slot_->count);
}

std::string_view DvmParamView::text(std::size_t i) const {
  if (slot_->kind != DvmParamKind::text || i >= slot_->count) return {};
  const auto [offset, size] = call_->texts_[slot_->first + i];
  return std::string_view(call_->chars_).substr(offset, size);
}

std::string_view DvmCall::name() const {
  if (function_ != DvmFunction::unknown) return dvm_function_name(function_);
  return std::string_view(chars_).substr(0, unknown_name_size_);
}

const std::string& DvmCall::trace_path() const {
  static const std::string none;
  return trace_path_ ? *trace_path_ : none;
}

const DvmParamSlot* DvmCall::find_slot(std::string_view name, DvmSide side, bool array) const {
  for (const DvmParamSlot& slot : params_) {
    if (slot.side == side && slot.array == array && slot.name_size == name.size() &&
        std::string_view(chars_).substr(slot.name_offset, slot.name_size) == name) {
      return &slot;
    }
  }
  return nullptr;
}

const DvmParamSlot& DvmCall::require_slot(std::string_view name, DvmSide side, bool array) const {
  if (const DvmParamSlot* slot = find_slot(name, side, array)) return *slot;
  std::string message = std::string(this->name()) + ": missing parameter '" + std::string(name);
  message += array ? "[]' (" : "' (";
  message += side_name(side);
  message += ')';
  throw_at(side == DvmSide::call ? trace_line_ : ret_trace_line_, message);
}

void DvmCall::throw_at(std::uint64_t line, const std::string& message) const {
  throw TraceError(trace_path(), line, message);
}

std::optional<DvmParamView> DvmCall::find(std::string_view name, DvmSide side) const {
  for (const DvmParamSlot& slot : params_) {
    if (slot.side == side && slot.name_size == name.size() &&
        std::string_view(chars_).substr(slot.name_offset, slot.name_size) == name) {
      return DvmParamView(*this, slot);
    }
  }
  return std::nullopt;
}

bool DvmCall::has(std::string_view name, DvmSide side) const { return find(name, side).has_value(); }

std::optional<std::uint64_t> DvmCall::find_handle(std::string_view name, DvmSide side) const {
  const DvmParamSlot* slot = find_slot(name, side, false);
  if (slot == nullptr) return std::nullopt;
  const DvmParamView view(*this, *slot);
  switch (slot->kind) {
    case DvmParamKind::handle:
      return view.handles()[0];
    case DvmParamKind::text: {
      std::uint64_t value = 0;
      if (parse_dvm_hex(view.text(), value) != DvmNumber::ok) {
        throw_at(slot->line, std::string(this->name()) + ": " + quoted_dvm(view.text()) +
                                 " is not a hexadecimal handle (parameter '" + std::string(name) + "')");
      }
      return value;
    }
    default:
      wrong_kind("handle", name, slot->kind);
  }
}

std::uint64_t DvmCall::handle(std::string_view name, DvmSide side) const {
  require_slot(name, side, false);
  return *find_handle(name, side);
}

std::optional<std::int64_t> DvmCall::find_integer(std::string_view name, DvmSide side) const {
  const DvmParamSlot* slot = find_slot(name, side, false);
  if (slot == nullptr) return std::nullopt;
  const DvmParamView view(*this, *slot);
  switch (slot->kind) {
    case DvmParamKind::integer:
      return view.integers()[0];
    case DvmParamKind::text: {
      std::int64_t value = 0;
      if (parse_dvm_integer(view.text(), value) != DvmNumber::ok) {
        throw_at(slot->line, std::string(this->name()) + ": " + quoted_dvm(view.text()) +
                                 " is not an integer (parameter '" + std::string(name) + "')");
      }
      return value;
    }
    default:
      wrong_kind("integer", name, slot->kind);
  }
}

std::int64_t DvmCall::integer(std::string_view name, DvmSide side) const {
  require_slot(name, side, false);
  return *find_integer(name, side);
}

std::optional<double> DvmCall::find_real(std::string_view name, DvmSide side) const {
  const DvmParamSlot* slot = find_slot(name, side, false);
  if (slot == nullptr) return std::nullopt;
  const DvmParamView view(*this, *slot);
  switch (slot->kind) {
    case DvmParamKind::real:
      return view.reals()[0];
    case DvmParamKind::integer:
      return static_cast<double>(view.integers()[0]);
    case DvmParamKind::text: {
      double value = 0;
      if (parse_dvm_real(view.text(), value) != DvmNumber::ok) {
        throw_at(slot->line, std::string(this->name()) + ": " + quoted_dvm(view.text()) +
                                 " is not a number (parameter '" + std::string(name) + "')");
      }
      return value;
    }
    default:
      wrong_kind("real", name, slot->kind);
  }
}

double DvmCall::real(std::string_view name, DvmSide side) const {
  require_slot(name, side, false);
  return *find_real(name, side);
}

std::optional<std::span<const std::int64_t>> DvmCall::find_array(std::string_view name, DvmSide side) const {
  const DvmParamSlot* slot = find_slot(name, side, true);
  if (slot == nullptr) return std::nullopt;
  if (slot->kind == DvmParamKind::text) {
    throw_at(slot->line, std::string(this->name()) + ": array '" + std::string(name) + "' holds text, not integers");
  }
  if (slot->kind != DvmParamKind::integer) wrong_kind("array", name, slot->kind);
  return DvmParamView(*this, *slot).integers();
}

std::span<const std::int64_t> DvmCall::array(std::string_view name, DvmSide side) const {
  require_slot(name, side, true);
  return *find_array(name, side);
}

std::span<const double> DvmCall::real_array(std::string_view name, DvmSide side) const {
  const DvmParamSlot& slot = require_slot(name, side, true);
  if (slot.kind != DvmParamKind::real) wrong_kind("real_array", name, slot.kind);
  return DvmParamView(*this, slot).reals();
}

std::string_view DvmCall::text(std::string_view name, DvmSide side) const {
  const DvmParamSlot& slot = require_slot(name, side, false);
  if (slot.kind != DvmParamKind::text) wrong_kind("text", name, slot.kind);
  return DvmParamView(*this, slot).text();
}

DvmPatternType DvmCall::pattern_type(std::string_view name, DvmSide side) const {
  const DvmParamSlot* slot = find_slot(name, side, false);
  return slot == nullptr ? DvmPatternType::none : slot->marker;
}

std::string format_dvm_call(const DvmCall& call) {
  std::string out(call.name());
  out += " LINE=";
  append_number(out, call.source_line());
  out += " FILE=";
  out += call.source_file();
  char buffer[64];
  out += " TIME=";
  out += format_dvm_time(call.call_time(), buffer);
  out += '/';
  out += format_dvm_time(call.ret_time(), buffer);
  bool ret_started = false;
  out += " |";
  for (std::size_t i = 0; i < call.param_count(); ++i) {
    const DvmParamView param = call.param(i);
    if (param.side() == DvmSide::ret && !ret_started) {
      out += " | ret:";
      ret_started = true;
    }
    append_param(out, param);
  }
  return out;
}

}  // namespace augur::traces::libdvm
