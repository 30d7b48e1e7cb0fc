// Private to scenarios/: the Predictor.par tokens and the cursor over them, shared by the reader
// of each format (predictor_par_cluster.cpp, predictor_par_old.cpp; predictor_par.cpp detects the
// format and tokenizes).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "machines/registry.hpp"
#include "machines/units.hpp"
#include "scenarios/config_error.hpp"
#include "scenarios/scenario.hpp"

namespace augur::scenarios::par {

enum class TokenKind { word, number, punct, end };

struct Token {
  TokenKind kind = TokenKind::end;
  std::string text;  ///< lower case (the format ignores case)
  int line = 0;
  int col = 0;
};

/// `text` in lower case (ASCII).
std::string lower(std::string_view text);

/// Splits the file into tokens. `//` starts a comment up to the end of the line (3.1 accepts
/// them only on their own line; here anywhere). The last token is `end`, at the end of the text.
std::vector<Token> tokenize(std::string_view text, const std::string& file);

/// A cursor over the tokens with positioned errors.
class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string file) : tokens_(std::move(tokens)), file_(std::move(file)) {}

  const std::string& file() const { return file_; }
  const Token& peek(std::size_t ahead = 0) const { return tokens_[std::min(at_ + ahead, tokens_.size() - 1)]; }
  const Token& next() {
    const Token& token = tokens_[at_];
    if (at_ + 1 < tokens_.size()) ++at_;
    return token;
  }
  bool at_end() const { return peek().kind == TokenKind::end; }
  bool is_punct(char c, std::size_t ahead = 0) const {
    const Token& token = peek(ahead);
    return token.kind == TokenKind::punct && token.text[0] == c;
  }
  bool is_word(std::string_view word, std::size_t ahead = 0) const {
    const Token& token = peek(ahead);
    return token.kind == TokenKind::word && token.text == word;
  }

  [[noreturn]] void fail(const Token& token, const std::string& message) const {
    throw ConfigError(file_, token.line, token.col, message);
  }
  /// "found 'x'" or "found the end of the file", for "expected …" messages.
  static std::string found(const Token& token) {
    return token.kind == TokenKind::end ? "found the end of the file" : "found '" + token.text + "'";
  }
  const Token& expect_punct(char c, const std::string& where) {
    if (!is_punct(c)) fail(peek(), "expected '" + std::string(1, c) + "' " + where + ", " + found(peek()));
    return next();
  }
  const Token& expect_word(const std::string& what) {
    if (peek().kind != TokenKind::word) fail(peek(), "expected " + what + ", " + found(peek()));
    return next();
  }
  const Token& expect_number(const std::string& what) {
    if (peek().kind != TokenKind::number) fail(peek(), "expected " + what + ", " + found(peek()));
    return next();
  }
  /// A non-negative integer (digits only).
  std::int64_t integer(const std::string& what) {
    const Token& token = peek();
    if (token.kind != TokenKind::number || token.text.size() > 9 ||
        token.text.find_first_not_of("0123456789") != std::string::npos)
      fail(token, "expected " + what + " (a whole number), " + found(token));
    next();
    return std::stoll(token.text);
  }
  /// A real number (as C's atof reads it: 7, 0.004, 1e-3).
  double real(const std::string& what) {
    const Token& token = expect_number(what);
    try {
      return machines::parse_quantity(token.text, machines::UnitKind::real);
    } catch (const machines::UnitError&) {
      fail(token, "expected " + what + ", found '" + token.text + "'");
    }
  }
  /// A time in microseconds, as written (3.1 reads µs); returns the text with its unit ("7us").
  std::string microseconds(const std::string& what) {
    const Token& token = expect_number(what + " in microseconds");
    try {
      machines::parse_quantity(token.text + "us", machines::UnitKind::time);
    } catch (const machines::UnitError&) {
      fail(token, "expected " + what + " in microseconds, found '" + token.text + "'");
    }
    return token.text + "us";
  }
  /// The `;` that ends every statement.
  void end_statement() { expect_punct(';', "at the end of the statement"); }
  /// Skips a statement whose value has no effect (`search = 0;`), up to and including its `;`.
  void skip_statement() {
    while (!at_end() && !is_punct(';')) next();
    end_statement();
  }

 private:
  std::vector<Token> tokens_;
  std::size_t at_ = 0;
  std::string file_;
};

/// The cluster format of Predictor 3.1 (`cluster = NAME;`) onto `dvm_cluster`.
MachineDescription parse_cluster_format(Parser& parser, const machines::MachineRegistry& registry);

/// The old format (`type = …;`) onto `bus` or `transputer_grid`.
MachineDescription parse_old_format(Parser& parser, const machines::MachineRegistry& registry);

}  // namespace augur::scenarios::par
