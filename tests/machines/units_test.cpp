// Tests of the unit parsers and formatters: accepted suffixes, exact scale factors, the exact
// error messages and the shortest natural formatting.
#include "machines/units.hpp"

#include <doctest/doctest.h>

#include <array>
#include <charconv>
#include <cmath>
#include <random>
#include <string>

using augur::machines::accepted_suffixes;
using augur::machines::format_quantity;
using augur::machines::parse_quantity;
using augur::machines::UnitError;
using augur::machines::UnitKind;

TEST_SUITE("unit") {
  TEST_CASE("parse_quantity reads times in every suffix") {
    CHECK(parse_quantity("1.5s", UnitKind::time) == 1.5);
    CHECK(parse_quantity("2ms", UnitKind::time) == 2e-3);
    CHECK(parse_quantity("75us", UnitKind::time) == 75e-6);
    CHECK(parse_quantity("200ns", UnitKind::time) == 200e-9);
    CHECK(parse_quantity("3ps", UnitKind::time) == 3e-12);
    CHECK(parse_quantity("2min", UnitKind::time) == 120.0);  // 2·60 s
    CHECK(parse_quantity("1h", UnitKind::time) == 3600.0);
    CHECK(parse_quantity(" 1e-3 s ", UnitKind::time) == 1e-3);  // blanks around and before the unit
  }

  TEST_CASE("parse_quantity reads bandwidths in bytes and bits") {
    CHECK(parse_quantity("10GBps", UnitKind::bandwidth) == 1e10);
    CHECK(parse_quantity("5MBps", UnitKind::bandwidth) == 5e6);
    CHECK(parse_quantity("1KiBps", UnitKind::bandwidth) == 1024.0);
    CHECK(parse_quantity("2GiBps", UnitKind::bandwidth) == 2.0 * 1024 * 1024 * 1024);
    CHECK(parse_quantity("8bps", UnitKind::bandwidth) == 1.0);        // 8 bit/s = 1 B/s
    CHECK(parse_quantity("100Mbps", UnitKind::bandwidth) == 12.5e6);  // 100e6 / 8
    CHECK(parse_quantity("1Gbps", UnitKind::bandwidth) == 1.25e8);    // 1e9 / 8
    CHECK(parse_quantity("1Kibps", UnitKind::bandwidth) == 128.0);    // 1024 / 8
  }

  TEST_CASE("parse_quantity reads byte counts and flop rates") {
    CHECK(parse_quantity("4KiB", UnitKind::bytes) == 4096.0);
    CHECK(parse_quantity("4kB", UnitKind::bytes) == 4000.0);
    CHECK(parse_quantity("1MiB", UnitKind::bytes) == 1048576.0);
    CHECK(parse_quantity("12B", UnitKind::bytes) == 12.0);
    CHECK(parse_quantity("1Gf", UnitKind::flop_rate) == 1e9);
    CHECK(parse_quantity("1.5Gflops", UnitKind::flop_rate) == 1.5e9);
    CHECK(parse_quantity("100Mflops", UnitKind::flop_rate) == 1e8);
    CHECK(parse_quantity("3f", UnitKind::flop_rate) == 3.0);
  }

  TEST_CASE("parse_quantity accepts a bare zero but no other bare number") {
    CHECK(parse_quantity("0", UnitKind::time) == 0.0);
    CHECK(parse_quantity("0", UnitKind::bytes) == 0.0);
    CHECK_THROWS_WITH_AS(parse_quantity("5", UnitKind::time),
                         "invalid time '5': expected a number followed by one of s, ms, us, ns, "
                         "ps, min, h",
                         UnitError);
  }

  TEST_CASE("parse_quantity names the accepted suffixes in its errors") {
    CHECK_THROWS_WITH_AS(parse_quantity("5 parsecs", UnitKind::time),
                         "invalid time '5 parsecs': expected a number followed by one of s, ms, "
                         "us, ns, ps, min, h",
                         UnitError);
    CHECK_THROWS_WITH_AS(parse_quantity("4kib", UnitKind::bytes),
                         "invalid bytes '4kib': expected a number followed by one of B, kB, MB, "
                         "GB, TB, KiB, MiB, GiB, TiB",
                         UnitError);
    CHECK_THROWS_WITH_AS(parse_quantity("fast", UnitKind::bandwidth),
                         "invalid bandwidth 'fast': expected a number followed by one of Bps, "
                         "kBps, MBps, GBps, TBps, KiBps, MiBps, GiBps, TiBps, bps, kbps, Mbps, "
                         "Gbps, Tbps, Kibps, Mibps, Gibps",
                         UnitError);
    CHECK_THROWS_WITH_AS(parse_quantity("1GFlops", UnitKind::flop_rate),
                         "invalid flop_rate '1GFlops': expected a number followed by one of f, "
                         "kf, Mf, Gf, Tf, flops, kflops, Mflops, Gflops, Tflops",
                         UnitError);
  }

  TEST_CASE("parse_quantity is case significant") {
    CHECK_THROWS_AS(parse_quantity("1US", UnitKind::time), UnitError);
    CHECK_THROWS_AS(parse_quantity("1gbps", UnitKind::bandwidth), UnitError);
    CHECK(parse_quantity("1MB", UnitKind::bytes) == 1e6);
    CHECK_THROWS_AS(parse_quantity("1mb", UnitKind::bytes), UnitError);
  }

  TEST_CASE("parse_quantity rejects negative and non-finite quantities") {
    CHECK_THROWS_WITH_AS(parse_quantity("-1us", UnitKind::time),
                         "invalid time '-1us': expected a non-negative number followed by one of "
                         "s, ms, us, ns, ps, min, h",
                         UnitError);
    CHECK_THROWS_AS(parse_quantity("infs", UnitKind::time), UnitError);
    CHECK_THROWS_AS(parse_quantity("nan", UnitKind::real), UnitError);
  }

  TEST_CASE("parse_quantity reads counts reals and booleans") {
    CHECK(parse_quantity("8", UnitKind::count) == 8.0);
    CHECK(parse_quantity("-0.5", UnitKind::real) == -0.5);
    CHECK(parse_quantity("1e3", UnitKind::real) == 1000.0);
    CHECK(parse_quantity("true", UnitKind::boolean) == 1.0);
    CHECK(parse_quantity("false", UnitKind::boolean) == 0.0);
    CHECK_THROWS_WITH_AS(parse_quantity("-1", UnitKind::count), "invalid count '-1': expected a non-negative integer",
                         UnitError);
    CHECK_THROWS_WITH_AS(parse_quantity("2.5", UnitKind::count), "invalid count '2.5': expected a non-negative integer",
                         UnitError);
    CHECK_THROWS_WITH_AS(parse_quantity("1.5x", UnitKind::real), "invalid real '1.5x': expected a number", UnitError);
    CHECK_THROWS_WITH_AS(parse_quantity("yes", UnitKind::boolean), "invalid boolean 'yes': expected true or false",
                         UnitError);
  }

  TEST_CASE("format_quantity picks the shortest natural suffix") {
    CHECK(format_quantity(1e-6, UnitKind::time) == "1us");
    CHECK(format_quantity(75e-6, UnitKind::time) == "75us");
    CHECK(format_quantity(1.5e-6, UnitKind::time) == "1.5us");
    CHECK(format_quantity(0.2e-6, UnitKind::time) == "200ns");
    CHECK(format_quantity(120.0, UnitKind::time) == "120s");  // ties go to the earlier suffix
    CHECK(format_quantity(7200.0, UnitKind::time) == "2h");
    CHECK(format_quantity(0.0, UnitKind::time) == "0s");
    CHECK(format_quantity(1e10, UnitKind::bandwidth) == "10GBps");
    CHECK(format_quantity(12.5e9, UnitKind::bandwidth) == "12.5GBps");
    CHECK(format_quantity(65536.0, UnitKind::bytes) == "64KiB");
    CHECK(format_quantity(4000.0, UnitKind::bytes) == "4kB");
    CHECK(format_quantity(1e9, UnitKind::flop_rate) == "1Gflops");
    CHECK(format_quantity(8.0, UnitKind::count) == "8");
    CHECK(format_quantity(0.5, UnitKind::real) == "0.5");
    CHECK(format_quantity(1.0, UnitKind::boolean) == "true");
  }

  TEST_CASE("format_quantity round-trips through parse_quantity") {
    for (const double seconds : {1e-6, 3.7e-9, 0.123456789, 42.0, 1e-13, 7200.5}) {
      const auto text = format_quantity(seconds, UnitKind::time);
      CHECK_MESSAGE(parse_quantity(text, UnitKind::time) == seconds, text);
    }
    for (const double bytes : {1.0, 1023.0, 1048576.0, 123456789.0, 1e15}) {
      const auto text = format_quantity(bytes, UnitKind::bytes);
      CHECK_MESSAGE(parse_quantity(text, UnitKind::bytes) == bytes, text);
    }
  }

  // The contract of format_quantity for plain numbers, by trying every precision: the first %g
  // text (std::to_chars general, precision 1 to 17) that parses back to the value and has no
  // exponent, else the first that parses back. format_quantity skips precisions that cannot
  // change the answer; this checks it gives the same text.
  TEST_CASE("format_quantity of a real is the shortest round-trip text - without exponent when one exists") {
    const auto reference = [](double x) {
      std::string first;
      for (int precision = 1; precision <= 17; ++precision) {
        std::array<char, 64> buffer{};
        const auto r =
            std::to_chars(buffer.data(), buffer.data() + buffer.size(), x, std::chars_format::general, precision);
        const std::string text(buffer.data(), r.ptr);
        double parsed = 0;
        std::from_chars(text.data(), text.data() + text.size(), parsed);
        if (parsed != x) continue;
        if (text.find('e') == std::string::npos) return text;
        if (first.empty()) first = text;
      }
      return first;
    };
    CHECK(format_quantity(1e-6, UnitKind::real) == "1e-06");
    CHECK(format_quantity(1e10, UnitKind::real) == "10000000000");
    CHECK(format_quantity(99999.5, UnitKind::real) == "99999.5");
    CHECK(format_quantity(0.0001, UnitKind::real) == "0.0001");
    CHECK(format_quantity(9.99995e-5, UnitKind::real) == "9.99995e-05");
    std::mt19937_64 random(11);
    std::uniform_real_distribution<double> mantissa(1, 10);
    std::uniform_int_distribution<int> exponent(-22, 22);
    std::uniform_int_distribution<int> digits(1, 17);
    for (int k = 0; k < 20000; ++k) {
      double x = mantissa(random);
      if (k % 2 == 0) {  // a value with few digits, the usual case in machine files
        const double scale = std::pow(10.0, digits(random) - 1);
        x = std::round(x * scale) / scale;
      }
      x *= std::pow(10.0, exponent(random));
      if (k % 3 == 0) x = -x;
      REQUIRE_MESSAGE(format_quantity(x, UnitKind::real) == reference(x), x);
    }
    for (const double x : {0.0, 1e22, 1e23, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, 1.0 / 3, 9.5, 9.95, 0.00095})
      CHECK_MESSAGE(format_quantity(x, UnitKind::real) == reference(x), x);
  }

  TEST_CASE("accepted_suffixes lists the suffixes of a kind") {
    CHECK(accepted_suffixes(UnitKind::time) == "s, ms, us, ns, ps, min, h");
    CHECK(accepted_suffixes(UnitKind::count).empty());
  }

}  // TEST_SUITE
