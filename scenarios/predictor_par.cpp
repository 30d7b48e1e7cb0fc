// Predictor.par reader: a positioned tokenizer (comments `//`, case folded), format detection,
// then one statement parser per format (old: Presage/Src/Ps.cpp PS(file, int), in
// predictor_par_old.cpp; cluster: PS(file), in predictor_par_cluster.cpp).
#include "scenarios/predictor_par.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenarios/config_error.hpp"
#include "scenarios/predictor_par_parser.hpp"

namespace augur::scenarios {
namespace par {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_word_char(char c) { return is_word_start(c) || is_digit(c); }

}  // namespace

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::vector<Token> tokenize(std::string_view text, const std::string& file) {
  std::vector<Token> tokens;
  int line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  const auto column = [&](std::size_t at) { return static_cast<int>(at - line_start) + 1; };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    Token token;
    token.line = line;
    token.col = column(i);
    const std::size_t first = i;
    if (is_word_start(c)) {
      while (i < text.size() && is_word_char(text[i])) ++i;
      token.kind = TokenKind::word;
    } else if (is_digit(c) || (c == '.' && i + 1 < text.size() && is_digit(text[i + 1]))) {
      // digits [. digits] [e [+-] digits]; "512x" is 512 then x.
      while (i < text.size() && is_digit(text[i])) ++i;
      if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && is_digit(text[i])) ++i;
      }
      if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
        if (j < text.size() && is_digit(text[j])) {
          i = j;
          while (i < text.size() && is_digit(text[i])) ++i;
        }
      }
      token.kind = TokenKind::number;
    } else if (std::string_view("=;{},().:").find(c) != std::string_view::npos) {
      ++i;
      token.kind = TokenKind::punct;
    } else {
      throw ConfigError(file, token.line, token.col, "unexpected character '" + std::string(1, c) + "'");
    }
    token.text = lower(text.substr(first, i - first));
    tokens.push_back(std::move(token));
  }
  Token end;
  end.line = line;
  end.col = column(i);
  tokens.push_back(end);
  return tokens;
}

}  // namespace par

namespace {

namespace fs = std::filesystem;
using par::lower;

// ---- format detection -----------------------------------------------------------------------

/// The key of each `key = value;` statement, lower case with blanks collapsed ("send byte time"),
/// read from the raw text so that a file that is not a machine file at all (the runtime's
/// pred_trc.par, with its /* */ comments) gets a clear message instead of a syntax error.
std::vector<std::string> statement_keys(std::string_view text) {
  std::string clean;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      clean += ' ';
      continue;
    }
    clean += text[i];
  }
  std::vector<std::string> keys;
  std::istringstream statements(clean);
  std::string statement;
  while (std::getline(statements, statement, ';')) {
    const auto equals = statement.find('=');
    if (equals == std::string::npos) continue;
    std::istringstream words(lower(statement.substr(0, equals)));
    std::string word;
    std::string key;
    while (words >> word) key += (key.empty() ? "" : " ") + word;
    keys.push_back(key);
  }
  return keys;
}

enum class ParFormat { old_format, cluster };

ParFormat detect_format(std::string_view text, const std::string& file) {
  const auto keys = statement_keys(text);
  if (std::find(keys.begin(), keys.end(), "cluster") != keys.end()) return ParFormat::cluster;
  for (const auto& key : keys)
    if (key == "type" || key == "start time" || key == "send byte time") return ParFormat::old_format;
  throw ConfigError(file, 0, 0,
                    "not a Predictor machine file: it has neither 'cluster = NAME;' (the cluster "
                    "format of Predictor 3.1) nor 'type = ethernet|network|transputer|myrinet(n);' "
                    "(the old format)");
}

}  // namespace

bool looks_like_predictor_par(const std::string& path, std::string_view text) {
  if (lower(fs::path(path).extension().string()) == ".par") return true;
  // The first line that is not blank and not a YAML comment: `// …` or `key = value` (a YAML
  // machine has `key: value`).
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') continue;
    line = line.substr(first);
    if (line.starts_with("//")) return true;
    const auto equals = line.find('=');
    const auto colon = line.find(':');
    return equals != std::string_view::npos && (colon == std::string_view::npos || equals < colon);
  }
  return false;
}

MachineDescription parse_predictor_par(std::string_view text, const std::string& file,
                                       const machines::MachineRegistry& registry) {
  const ParFormat format = detect_format(text, file);
  par::Parser parser(par::tokenize(text, file), file);
  MachineDescription machine = format == ParFormat::cluster ? par::parse_cluster_format(parser, registry)
                                                            : par::parse_old_format(parser, registry);
  machine.source = file;
  machine.name = fs::path(file).stem().string();
  return machine;
}

MachineDescription load_predictor_par(const std::string& path, const machines::MachineRegistry& registry) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path, 0, 0, "cannot open the machine file");
  std::ostringstream content;
  content << in.rdbuf();
  return parse_predictor_par(content.str(), path, registry);
}

}  // namespace augur::scenarios
