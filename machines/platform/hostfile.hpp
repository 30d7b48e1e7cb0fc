// smpirun's hostfile: which host every rank runs on.
#pragma once
#include <string>
#include <vector>

#include "machines/platform/platform.hpp"

namespace augur::machines::platform {

/// The host of each of `ranks` ranks as `smpirun -hostfile FILE` places them: a line `host:N`
/// stands for N lines `host`, blank lines are skipped, rank r runs on line r mod (lines).
/// Throws PlatformError at the line of an unknown host, a bad count, or when the file names no
/// host.
std::vector<int> read_hostfile(const std::string& path, const Platform& platform, int ranks);
/// The same from text.
std::vector<int> parse_hostfile(const std::string& text, const std::string& file, const Platform& platform, int ranks);
/// Without a hostfile (smpirun's default): the platform's hosts sorted by name, rank r on the
/// (r mod hosts)-th.
std::vector<int> default_mapping(const Platform& platform, int ranks);

}  // namespace augur::machines::platform
