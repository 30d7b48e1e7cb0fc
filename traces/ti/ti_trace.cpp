// open_ti_trace: tells an index file from a shared trace file, resolves rank files and streams
// each rank's actions through its own LineReader (opened on first use, kept open to the end).
#include "traces/ti/ti_trace.hpp"

#include <fmt/format.h>

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "engine/log.hpp"
#include "engine/prefetch.hpp"
#include "support/page_arena.hpp"
#include "support/strings.hpp"
#include "traces/line_reader.hpp"
#include "traces/ti/ti_parser.hpp"
#include "traces/trace_error.hpp"

namespace augur::traces::ti {
namespace {

/// Read buffer of each rank's reader, refilled in place: the replay visits the ranks round
/// robin a few lines at a time, so small chunks are read just before they are parsed (still in
/// cache) instead of whole files sitting in P large buffers (docs/performance.md, trace readers).
constexpr std::size_t rank_buffer_size = std::size_t{8} * 1024;
/// From this many ranks on, the rank buffers come from a support::PageArena (2 MiB pages): 512 ranks'
/// buffers fill up to 4 MiB, and each step reads another rank's, so that with 4 KiB pages most
/// steps of a large trace would miss the TLB. Below, the
/// pages are few enough for the TLB, and a huge page's first touch (2 MiB zeroed) would cost a
/// run of a few milliseconds more than it saves.
constexpr std::size_t arena_min_ranks = 512;
/// A shared file naming a larger rank is taken for corrupt rather than allocating cursors.
constexpr std::int32_t max_shared_ranks = 1 << 20;

/// Sizes of SMPI datatype ids, SimGrid 3.32 (src/smpi/mpi/smpi_datatype.cpp); 0 = no such id.
constexpr std::array<unsigned char, 58> datatype_sizes{
    8, 4, 1, 2, 8, 4, 1, 8,    // 0 DOUBLE 1 INT 2 CHAR 3 SHORT 4 LONG 5 FLOAT 6 BYTE 7 LONG_LONG
    0, 0, 0, 4, 8, 0, 16, 0,   // 11 UNSIGNED 12 UNSIGNED_LONG 14 LONG_DOUBLE
    1, 1, 2, 4, 8, 1, 2, 4,    // 16 C_BOOL 17..20 INT8..INT64 21..23 UINT8..UINT32
    8, 0, 16, 0, 0, 0, 8, 16,  // 24 UINT64 26 C_DOUBLE_COMPLEX 30 FLOAT_INT 31 LONG_INT
    16, 0, 8, 0, 16, 0, 4, 4,  // 32 DOUBLE_INT 34 2INT 36 2DOUBLE 38 REAL 39 REAL4
    8, 0, 8, 16, 16, 4, 2, 4,  // 40 REAL8 42 COMPLEX8 43 COMPLEX16 44 COMPLEX32 45 INTEGER1 (sic)
                               // 46 INTEGER2 47 INTEGER4
    8, 0, 0, 0, 0, 0, 0, 0,    // 48 INTEGER8
    0, 1,                      // 57 PACKED
};

/// One rank's stream.
struct RankCursor {
  std::string path;              ///< the file as opened (index entries: resolved)
  std::string entry;             ///< index mode: the path as written in the index
  std::uint64_t index_line = 0;  ///< index mode: the line naming this file
  std::optional<LineReader> reader;
  bool done = false;
  /// The index's folder's listing has it as a regular file (d_type): opened without fstat(2).
  bool listed_regular = false;
  /// Index mode, a file beside the index: where its name starts in `path` (opened relative to
  /// the index's folder); otherwise not_beside. (Beside the two flags: no padding, 152 bytes.)
  std::uint32_t name_at = not_beside;
  static constexpr std::uint32_t not_beside = 0xffffffffU;
  TiRankState state;
};

/// A TI trace: index mode (one file per rank, every line checked to be that rank's) or shared
/// mode (every rank's cursor reads the one file and keeps its own lines).
class TiTrace final : public MpTraceSource, public engine::Prefetching {
 public:
  TiTrace(std::string index_path, bool shared, std::vector<RankCursor> cursors)
      : index_path_(std::move(index_path)),
        shared_(shared),
        arena_(cursors.size() >= arena_min_ranks
                   ? std::make_unique<support::PageArena>(
                         std::min(cursors.size() * rank_buffer_size, support::PageArena::default_chunk_bytes))
                   : nullptr),
        cursors_(std::move(cursors)),
        next_text_(cursors_.size(), nullptr),
        parser_(static_cast<int>(cursors_.size())) {
    const bool any_beside = std::any_of(cursors_.begin(), cursors_.end(),
                                        [](const RankCursor& c) { return c.name_at != RankCursor::not_beside; });
    if (!shared_ && any_beside) {
      const std::string folder = std::filesystem::path(index_path_).parent_path().string();
      // O_PATH: only a handle to look names up from (search permission suffices, as for paths).
      folder_fd_ = ::open(folder.empty() ? "." : folder.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    }
  }
  ~TiTrace() override {
    if (folder_fd_ >= 0) ::close(folder_fd_);
  }
  TiTrace(const TiTrace&) = delete;
  TiTrace& operator=(const TiTrace&) = delete;

  int rank_count() const override { return static_cast<int>(cursors_.size()); }

  std::string file_name(int rank) const override { return cursor(rank).path; }

  /// Per rank, its cursor and where its next line starts: at thousands of ranks both are out of
  /// the caches by the rank's next read.
  void plan_prefetch(engine::PrefetchPlan& plan) const override {
    plan.add_records(cursors_.data(), sizeof(RankCursor));
    plan.add_pointed_lines(next_text_.data());
  }

  bool next(int rank, MpRecord& out) override {
    RankCursor& c = cursor(rank);
    if (c.done) return false;
    if (!c.reader) open(rank, c);
    std::string_view line;
    while (c.reader->next(line)) {
      // Most lines take the one-pass path; the rest (and every error) the general one.
      if (parser_.parse_common(line, c.state, out)) {
        out.line = c.reader->line_number();
        next_text_[static_cast<std::size_t>(rank)] = c.reader->unread();
        return true;
      }
      if (!parser_.split(line)) continue;
      const TiLineSource source{c.path, c.reader->line_number()};
      const std::int32_t owner = parser_.rank_field(source);
      if (owner != rank) {
        if (shared_) continue;
        throw TraceError(
            c.path, source.line,
            "line belongs to rank " + std::to_string(owner) + " but file is rank " + std::to_string(rank) + "'s");
      }
      parser_.parse(source, c.state, out);
      next_text_[static_cast<std::size_t>(rank)] = c.reader->unread();
      return true;
    }
    if (auto* lg = engine::logger_at(engine::Folder::traces, spdlog::level::trace)) {
      lg->trace("rank {}: {} ends after line {}", rank, c.path, c.reader->line_number());
    }
    c.done = true;
    c.reader.reset();  // closes the file, frees the reader (a buffer from the arena stays: the trace owns it)
    next_text_[static_cast<std::size_t>(rank)] = nullptr;
    return false;
  }

 private:
  void check_rank(int rank) const {
    if (rank < 0 || rank >= rank_count()) {
      throw std::out_of_range("TI trace has no rank " + std::to_string(rank));
    }
  }
  RankCursor& cursor(int rank) {
    check_rank(rank);
    return cursors_[static_cast<std::size_t>(rank)];
  }
  const RankCursor& cursor(int rank) const {
    check_rank(rank);
    return cursors_[static_cast<std::size_t>(rank)];
  }

  void open(int rank, RankCursor& c) const {
    try {
      if (folder_fd_ >= 0 && c.name_at != RankCursor::not_beside) {
        c.reader.emplace(c.path, rank_buffer_size, folder_fd_, c.name_at, arena_.get(), c.listed_regular);
      } else {
        c.reader.emplace(c.path, rank_buffer_size, arena_.get());
      }
      if (auto* lg = engine::logger_at(engine::Folder::traces, spdlog::level::trace)) {
        lg->trace("rank {}: reading {}", rank, c.path);
      }
    } catch (const TraceError& error) {
      if (shared_) throw;
      std::string reason = error.message();
      if (reason.starts_with("cannot open: ")) reason.erase(0, 13);
      throw TraceError(index_path_, c.index_line,
                       "cannot open rank " + std::to_string(rank) + " trace '" + c.entry + "': " + reason);
    }
  }

  std::string index_path_;
  bool shared_;
  /// The rank readers' buffers from arena_min_ranks ranks on (declared before the cursors: it
  /// outlives their readers).
  std::unique_ptr<support::PageArena> arena_;
  std::vector<RankCursor> cursors_;
  std::vector<const char*> next_text_;  ///< per rank, its reader's unread text (plan_prefetch())
  TiLineParser parser_;
  /// Index mode: the index's folder, open, for the rank files beside it (-1: open them by path).
  int folder_fd_ = -1;
};

bool file_exists(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::exists(path, error);
}

/// The regular files of a folder by name, read once with readdir: an index of thousands of rank
/// files is resolved with one directory read instead of a stat per candidate (16,384 stats are
/// ~30 ms, a tenth of such a run). A name listed here is a regular file, which
/// std::filesystem::exists would find too; a name not listed is checked with exists, so that
/// symbolic links, file systems without d_type and files created since give the same answer.
class FolderListing {
 public:
  explicit FolderListing(const std::filesystem::path& folder) {
    DIR* dir = ::opendir(folder.empty() ? "." : folder.c_str());
    if (dir == nullptr) return;
    std::vector<Name> names;
    while (const dirent* entry = ::readdir(dir)) {
      if (entry->d_type != DT_REG) continue;
      const std::string_view name(entry->d_name);
      if (names_.size() + name.size() > max_names_bytes) break;  // the rest: checked with exists
      names.push_back(Name{static_cast<std::uint32_t>(names_.size()), static_cast<std::uint32_t>(name.size())});
      names_.append(name);
    }
    ::closedir(dir);
    // An open-addressing table of the names, at most half full.
    std::size_t size = 16;
    while (size < 2 * names.size()) size *= 2;
    slots_.assign(size, Name{});
    mask_ = size - 1;
    for (const Name& n : names) {
      std::size_t slot = hash(text(n)) & mask_;
      while (slots_[slot].size != 0) slot = (slot + 1) & mask_;
      slots_[slot] = n;
    }
    count_ = names.size();
  }
  bool has(std::string_view name) const {
    if (slots_.empty() || name.empty()) return false;
    for (std::size_t slot = hash(name) & mask_;; slot = (slot + 1) & mask_) {
      const Name& n = slots_[slot];
      if (n.size == 0) return false;
      if (text(n) == name) return true;
    }
  }
  /// How many names it holds: the regular files of the folder.
  std::size_t count() const { return count_; }

 private:
  /// A name's place in names_ (size 0: an empty slot; no file name is empty).
  struct Name {
    std::uint32_t start = 0;
    std::uint32_t size = 0;
  };
  static constexpr std::size_t max_names_bytes = 0xffff0000U;
  static std::size_t hash(std::string_view name) { return std::hash<std::string_view>{}(name); }
  std::string_view text(const Name& n) const { return std::string_view(names_.data() + n.start, n.size); }

  /// The names one after another; the table holds where each starts and its length (a folder of
  /// a million files costs its names plus 16 bytes a name, and two cache misses a lookup).
  std::string names_;
  std::vector<Name> slots_;
  std::size_t mask_ = 0;
  std::size_t count_ = 0;
};

/// A rank file as an index names it: its path, and whether it is a file of the index's own folder.
struct RankFile {
  std::string path;
  bool beside_index = false;
  bool listed_regular = false;  ///< the folder's listing names it (d_type: a regular file)
};

/// What a rank file's name may end with, in the order tried: itself, then its compressed
/// sibling (SimGrid's index names rank<r>.txt; the files are often kept compressed next to it).
constexpr std::array<std::string_view, 3> variant_suffixes{"", ".zst", ".gz"};
/// The longest of them, for a candidate's reservation.
constexpr std::size_t longest_variant_suffix =
    std::max({variant_suffixes[0].size(), variant_suffixes[1].size(), variant_suffixes[2].size()});

/// `path` itself, else `path`.zst or `path`.gz.
std::optional<std::string> existing_variant(const std::filesystem::path& path) {
  for (const std::string_view suffix : variant_suffixes) {
    std::filesystem::path candidate = path;
    candidate += suffix;
    if (file_exists(candidate)) return candidate.string();
  }
  return std::nullopt;
}

/// The same for a plain name `entry` (no '/') of a listed folder whose paths start with
/// `prefix` (the folder and a separator as std::filesystem joins them): a candidate the listing
/// names needs no stat, and no path object is built — the answer and the string
/// existing_variant(folder / entry) gives, for the thousands of entries of a large index, as a
/// file beside the index (listed_regular when the listing named it: a regular file then).
std::optional<RankFile> existing_listed_variant(std::string_view prefix, std::string_view entry,
                                                const FolderListing& listing) {
  std::string candidate;
  candidate.reserve(prefix.size() + entry.size() + longest_variant_suffix);
  candidate.append(prefix);
  const std::size_t name_at = candidate.size();
  candidate.append(entry);
  const std::size_t plain_size = candidate.size();
  for (const std::string_view suffix : variant_suffixes) {
    candidate.resize(plain_size);
    candidate.append(suffix);
    const bool listed = listing.has(std::string_view(candidate).substr(name_at));
    if (listed || file_exists(candidate)) return RankFile{std::move(candidate), true, listed};
  }
  return std::nullopt;
}

/// Rank files resolved one by one before a folder is listed (small traces need no listing).
constexpr std::size_t entries_before_listing = 64;

/// A rank file named by an index: absolute as is; relative against the index's folder first,
/// then against the working directory. `listing`, when given, lists the index's folder, whose
/// paths start with `listed_prefix` (existing_listed_variant).
std::optional<RankFile> resolve_rank_file(const std::filesystem::path& index_folder, std::string_view listed_prefix,
                                          std::string_view entry, const FolderListing* listing) {
  // The listing names the index's folder's own files: not those of an entry with a sub-folder.
  const bool plain_name = entry.find('/') == std::string_view::npos;
  if (plain_name && listing != nullptr) {  // a large index's usual entry (a plain name is relative)
    if (auto beside_index = existing_listed_variant(listed_prefix, entry, *listing)) return beside_index;
    // Not beside the index: the working directory, as below (no path object built before).
    if (auto found = existing_variant(std::filesystem::path(entry))) return RankFile{std::move(*found), false};
    return std::nullopt;
  }
  const std::filesystem::path written(entry);
  if (!written.is_absolute()) {
    if (auto beside_index = existing_variant(index_folder / written)) {
      return RankFile{std::move(*beside_index), plain_name};
    }
  }
  if (auto found = existing_variant(written)) return RankFile{std::move(*found), false};
  return std::nullopt;
}

/// Shared mode: one pass over the file to find the largest rank.
std::vector<RankCursor> scan_shared_file(const std::string& path, LineReader& reader, std::string_view first_line) {
  TiLineParser parser(1);
  std::int32_t max_rank = -1;
  std::uint64_t actions = 0;
  std::string_view line = first_line;
  do {
    if (!parser.split(line)) continue;
    ++actions;
    const std::int32_t rank = parser.rank_field(TiLineSource{path, reader.line_number()});
    if (rank >= max_shared_ranks) {
      throw TraceError(path, reader.line_number(),
                       "rank " + std::to_string(rank) + " is implausibly large (at most " +
                           std::to_string(max_shared_ranks) + " ranks in a shared trace file)");
    }
    max_rank = std::max(max_rank, rank);
  } while (reader.next(line));
  // Every rank has at least one action: a larger rank number is a typo, not ranks to allocate.
  if (static_cast<std::uint64_t>(max_rank) >= actions) {
    throw TraceError(path, 0,
                     fmt::format("rank {} named in a shared trace file of {} action{}: the ranks are 0 to N-1, "
                                 "each with its own actions",
                                 max_rank, actions, actions == 1 ? "" : "s"));
  }

  std::vector<RankCursor> cursors(static_cast<std::size_t>(max_rank + 1));
  for (std::size_t r = 0; r < cursors.size(); ++r) {
    cursors[r].path = path;
    cursors[r].state.rank = static_cast<std::int32_t>(r);
  }
  return cursors;
}

/// Index mode: the non-blank, non-comment lines, rank by rank.
std::vector<RankCursor> read_index(const std::string& path, LineReader& reader, std::string_view first_line) {
  const std::filesystem::path folder = std::filesystem::path(path).parent_path();
  // How std::filesystem joins the folder and a plain name: the folder, then a separator unless
  // the folder is empty or ends with one.
  std::string listed_prefix = (folder / "x").string();
  listed_prefix.pop_back();
  std::vector<RankCursor> cursors;
  std::optional<FolderListing> listing;
  std::string_view line = first_line;
  do {
    if (is_skipped_ti_line(line)) continue;
    const std::string_view entry = support::trim(line);
    const auto rank = static_cast<std::int32_t>(cursors.size());
    if (!listing && cursors.size() == entries_before_listing) {
      listing.emplace(folder);
      // Mostly a rank file each (and the index): room for them at once, within reason.
      cursors.reserve(std::clamp<std::size_t>(listing->count(), cursors.size(), std::size_t{1} << 20));
    }
    std::optional<RankFile> resolved = resolve_rank_file(folder, listed_prefix, entry, listing ? &*listing : nullptr);
    if (!resolved) {
      throw TraceError(path, reader.line_number(),
                       "cannot open rank " + std::to_string(rank) + " trace '" + std::string(entry) +
                           "': No such file or directory");
    }
    RankCursor& c = cursors.emplace_back();
    c.path = std::move(resolved->path);
    if (resolved->beside_index) {  // its name: what follows the folder (entry, maybe + .zst / .gz)
      const std::size_t slash = c.path.rfind('/');
      c.name_at = slash == std::string::npos ? 0U : static_cast<std::uint32_t>(slash + 1);
      c.listed_regular = resolved->listed_regular;
    }
    c.entry = std::string(entry);
    c.index_line = reader.line_number();
    c.state.rank = rank;
  } while (reader.next(line));
  return cursors;
}

/// Reads up to the first line that is neither blank nor a comment; false at the end of the file.
bool first_action_line(LineReader& reader, std::string_view& line) {
  while (reader.next(line)) {
    if (!is_skipped_ti_line(line)) return true;
  }
  return false;
}

/// Shared mode: `path` holds the actions of every rank, `first_line` (read from `reader`) the first.
std::unique_ptr<MpTraceSource> open_shared_file(const std::string& path, LineReader& reader,
                                                std::string_view first_line) {
  // Shared mode reads the file once to count the ranks, then once per rank: a pipe or a device
  // would be empty (or block) the second time.
  if (std::error_code ec; !std::filesystem::is_regular_file(path, ec)) {
    throw TraceError(path, 0,
                     "a trace file shared by all ranks is read several times: it must be a regular file, not a "
                     "pipe or a device (save it to a file first)");
  }
  std::vector<RankCursor> cursors = scan_shared_file(path, reader, first_line);
  if (auto* lg = engine::logger_at(engine::Folder::traces, spdlog::level::info)) {
    lg->info("TI trace {}: one file shared by {} ranks ({} lines)", path, cursors.size(), reader.line_number());
  }
  return std::make_unique<TiTrace>(path, true, std::move(cursors));
}

}  // namespace

std::unique_ptr<MpTraceSource> open_ti_trace(const std::string& path) {
  LineReader reader(path);
  std::string_view line;
  if (!first_action_line(reader, line)) throw TraceError(path, 0, "empty trace: neither actions nor rank files");
  if (line.starts_with("\xEF\xBB\xBF"))
    throw TraceError(path, reader.line_number(), "the file starts with a UTF-8 byte order mark: save it without one");
  if (starts_with_integer(line)) return open_shared_file(path, reader, line);
  std::vector<RankCursor> cursors = read_index(path, reader, line);
  // SimGrid reads an index of one line as one file shared by all ranks (every action line starts
  // with its rank, so a one-rank trace reads the same either way).
  if (cursors.size() == 1) {
    LineReader shared(cursors[0].path);
    if (!first_action_line(shared, line)) throw TraceError(cursors[0].path, 0, "empty trace: no actions");
    return open_shared_file(cursors[0].path, shared, line);
  }
  if (auto* lg = engine::logger_at(engine::Folder::traces, spdlog::level::info)) {
    const auto compressed = std::count_if(cursors.begin(), cursors.end(), [](const RankCursor& c) {
      return c.path.ends_with(".zst") || c.path.ends_with(".gz");
    });
    const auto beside = std::count_if(cursors.begin(), cursors.end(),
                                      [](const RankCursor& c) { return c.name_at != RankCursor::not_beside; });
    lg->info(
        "TI trace {}: an index of {} rank files ({} beside the index, {} compressed), each opened when its rank "
        "first reads",
        path, cursors.size(), beside, compressed);
  }
  return std::make_unique<TiTrace>(path, false, std::move(cursors));
}

unsigned datatype_size(int id) {
  if (id < 0 || static_cast<std::size_t>(id) >= datatype_sizes.size()) return 0;
  return datatype_sizes[static_cast<std::size_t>(id)];
}

}  // namespace augur::traces::ti
