// DvmFunction: the name table and a hash table for looking names up (one per call line).
#include "traces/libdvm/dvm_function.hpp"

#include <array>

#include "traces/libdvm/dvm_text.hpp"

namespace augur::traces::libdvm {
namespace {

/// Trace names in enumerator order.
constexpr std::array<std::string_view, dvm_function_count> function_names{
    "binter_",      "bsloop_",
    "bploop_",      "einter_",
    "enloop_",      "eloop_",
    "dvm_fopen",    "dvm_fclose",
    "dvm_fread",    "dvm_fwrite",
    "dvm_fprintf",  "dvm_void_fprintf",
    "dvm_vfprintf", "dvm_void_vfprintf",
    "dvm_printf",   "dvm_void_printf",
    "dvm_vprintf",  "dvm_void_vprintf",
    "dvm_scanf",    "dvm_fscanf",
    "dvm_vscanf",   "dvm_vfscanf",
    "dvm_fgetc",    "dvm_fgets",
    "dvm_fputc",    "dvm_fputs",
    "dvm_getc",     "dvm_getchar",
    "dvm_gets",     "dvm_putc",
    "dvm_putchar",  "dvm_puts",
    "dvm_ungetc",   "dvm_fseek",
    "dvm_ftell",    "dvm_fgetpos",
    "dvm_fsetpos",  "dvm_rewind",
    "dvm_fflush",   "dvm_feof",
    "dvm_ferror",   "dvm_clearerr",
    "dvm_freopen",  "dvm_setbuf",
    "dvm_setvbuf",  "dvm_tmpfile",
    "dvm_tmpnam",   "dvm_remove",
    "dvm_rename",   "dvm_open",
    "dvm_close",    "dvm_read",
    "dvm_write",    "dvm_lseek",
    "dvm_fstat",    "dvm_stat",
    "dvm_access",   "biof_",
    "eiof_",        "srmem_",
    "crtps_",       "psview_",
    "getps_",       "delps_",
    "setelw_",      "getam_",
    "getamr_",      "crtamv_",
    "delamv_",      "mapam_",
    "runam_",       "stopam_",
    "blkdiv_",      "distr_",
    "redis_",       "crtda_",
    "align_",       "delda_",
    "realn_",       "arrcpy_",
    "aarrcp_",      "waitcp_",
    "crtpl_",       "mappl_",
    "dopl_",        "endpl_",
    "crtrg_",       "crtred_",
    "insred_",      "delred_",
    "delrg_",       "strtrd_",
    "waitrd_",      "crtshg_",
    "inssh_",       "insshd_",
    "incsh_",       "incshd_",
    "delshg_",      "strtsh_",
    "waitsh_",      "exfrst_",
    "imlast_",      "sendsh_",
    "recvsh_",      "across_",
    "crtrbl_",      "crtrbp_",
    "crtbg_",       "insrb_",
    "loadrb_",      "waitrb_",
    "loadbg_",      "waitbg_",
    "getamv_",      "tstelm_",
    "rwelm_",       "rlocel_",
    "wlocel_",      "clocel_",
    "copelm_",      "elmcpy_",
    "delobj_",      "getlen_",
    "tron_",        "troff_",
    "begbl_",       "endbl_",
    "locind_",      "locsiz_",
    "tstda_",       "tstio_",
    "getrnk_",      "getsiz_",
    "arrmap_",      "amvmap_",
    "setpsw_",      "setind_",
    "getind_",      "malign_",
    "mrealn_",      "mdistr_",
    "mredis_",      "delarm_",
    "delmvm_",      "addhdr_",
    "delhdr_",      "dvm_dfread",
    "dvm_dfwrite",  "dprstv_",
    "dstv_",        "dldv_",
    "dbegpl_",      "dbegsl_",
    "dendl_",       "diter_",
    "drmbuf_",      "dskpbl_",
    "dvm_Init",     "saverv_",
    "mps_Bcast",    "mps_Barrier",
};

/// Name -> enumerator, built once.
const DvmNameTable<512>& function_table() {
  static const DvmNameTable<512> table = [] {
    DvmNameTable<512> result;
    for (std::size_t i = 0; i < function_names.size(); ++i) {
      result.insert(function_names[i], static_cast<std::uint8_t>(i));
    }
    return result;
  }();
  return table;
}

}  // namespace

std::string_view dvm_function_name(DvmFunction function) {
  const auto index = static_cast<std::size_t>(function);
  return index < function_names.size() ? function_names[index] : std::string_view("unknown");
}

DvmFunction find_dvm_function(std::string_view name) {
  return static_cast<DvmFunction>(function_table().find(name, static_cast<std::uint8_t>(DvmFunction::unknown)));
}

}  // namespace augur::traces::libdvm
