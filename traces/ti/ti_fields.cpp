// CheckedFields' general conversions and errors, out of the common path.
#include "traces/ti/ti_fields.hpp"

#include "traces/trace_error.hpp"

namespace augur::traces::ti {
namespace {

std::string field_name(const char* name, int index) {
  std::string text = name;
  if (index >= 0) {
    text += '_';
    text += std::to_string(index);
  }
  return text;
}

}  // namespace

void CheckedFields::fail(const std::string& message) const { throw TraceError(source_.file, source_.line, message); }

void CheckedFields::number_error(NumberStatus status, std::string_view text, const char* name, int index) const {
  fail(std::string(keyword_) + ": " + number_message(status, text, field_name(name, index)));
}

std::uint64_t CheckedFields::general_count(std::string_view text, const char* name, int index) const {
  std::uint64_t value = 0;
  const NumberStatus status = parse_count(text, value);
  if (status != NumberStatus::ok) number_error(status, text, name, index);
  return value;
}

double CheckedFields::general_amount(std::string_view text, const char* name) const {
  double value = 0;
  const NumberStatus status = parse_amount(text, value);
  if (status != NumberStatus::ok) number_error(status, text, name, -1);
  return value;
}

std::int32_t CheckedFields::general_integer(std::string_view text, const char* name) const {
  std::int32_t value = 0;
  const NumberStatus status = parse_int(text, value);
  if (status != NumberStatus::ok) number_error(status, text, name, -1);
  return value;
}

void CheckedFields::missing(const char* name, int index) const {
  fail(std::string(keyword_) + ": missing field '" + field_name(name, index) + "' (expected: " + usage() + ")");
}

void CheckedFields::no_such_rank(std::int32_t value, const char* relation) const {
  fail(std::string(keyword_) + " " + relation + " " + std::to_string(value) + " but the trace has " +
       ranks_phrase(rank_count_));
}

void CheckedFields::unknown_datatype(std::int32_t id, const char* name) const {
  fail("unknown datatype id " + std::to_string(id) + " (field '" + name + "' of " + std::string(keyword_) + ")");
}

void CheckedFields::overflow(std::uint64_t count, unsigned size, const char* name) const {
  fail(std::string(keyword_) + ": " + std::to_string(count) + " x " + std::to_string(size) +
       " bytes overflows 64 bits (field '" + name + "')");
}

void CheckedFields::too_many() {
  fail(std::string(keyword_) + ": too many fields, " + quoted(next_field()) + " is one too many (expected: " + usage() +
       ")");
}

std::string CheckedFields::usage() const {
  std::string text = usage_;
  const std::string last = std::to_string(rank_count_ - 1);
  for (std::size_t at = text.find("{last}"); at != std::string::npos; at = text.find("{last}", at)) {
    text.replace(at, 6, last);
  }
  return text;
}

}  // namespace augur::traces::ti
