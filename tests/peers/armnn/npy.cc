#include "npy.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace peer {

void write_npy(const std::filesystem::path& path, const NpyArray& a) {
  std::string dict = "{'descr': '" + a.descr + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < a.shape.size(); ++i) {
    dict += std::to_string(a.shape[i]);
    if (a.shape.size() == 1 || i + 1 < a.shape.size()) dict += ",";
    if (i + 1 < a.shape.size()) dict += " ";
  }
  dict += "), }";
  // 10 bytes of preamble; the whole header (preamble + dict + '\n') is a multiple of 64.
  size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error("cannot write " + path.string());
  const uint16_t hlen = static_cast<uint16_t>(dict.size());
  f.write("\x93NUMPY\x01\x00", 8);
  const char le[2] = {static_cast<char>(hlen & 0xff), static_cast<char>(hlen >> 8)};
  f.write(le, 2);
  f.write(dict.data(), static_cast<std::streamsize>(dict.size()));
  f.write(reinterpret_cast<const char*>(a.data.data()), static_cast<std::streamsize>(a.data.size()));
  if (!f) throw std::runtime_error("short write to " + path.string());
}

static std::string dict_value(const std::string& dict, const std::string& key) {
  const auto k = dict.find("'" + key + "'");
  if (k == std::string::npos) throw std::runtime_error("npy header lacks " + key);
  auto p = dict.find(':', k);
  if (p == std::string::npos) throw std::runtime_error("bad npy header");
  ++p;
  while (p < dict.size() && dict[p] == ' ') ++p;
  if (dict[p] == '\'') return dict.substr(p + 1, dict.find('\'', p + 1) - p - 1);
  if (dict[p] == '(') return dict.substr(p + 1, dict.find(')', p) - p - 1);
  return dict.substr(p, dict.find_first_of(",}", p) - p);
}

NpyArray read_npy(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path.string());
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string all = ss.str();
  if (all.size() < 10 || all.compare(0, 6, "\x93NUMPY") != 0)
    throw std::runtime_error(path.string() + ": not a .npy file");
  size_t hlen = 0, off = 0;
  if (all[6] == 1) {
    hlen = static_cast<uint8_t>(all[8]) | (static_cast<uint8_t>(all[9]) << 8);
    off = 10;
  } else {
    if (all.size() < 12) throw std::runtime_error(path.string() + ": truncated");
    for (int i = 0; i < 4; ++i) hlen |= size_t(static_cast<uint8_t>(all[8 + i])) << (8 * i);
    off = 12;
  }
  if (off + hlen > all.size()) throw std::runtime_error(path.string() + ": truncated header");
  const std::string dict = all.substr(off, hlen);
  NpyArray a;
  a.descr = dict_value(dict, "descr");
  if (dict_value(dict, "fortran_order") != "False")
    throw std::runtime_error(path.string() + ": Fortran order unsupported");
  std::stringstream shape(dict_value(dict, "shape"));
  std::string tok;
  while (std::getline(shape, tok, ',')) {
    if (tok.find_first_not_of(' ') == std::string::npos) continue;
    a.shape.push_back(std::stoull(tok));
  }
  a.data.assign(all.begin() + static_cast<std::ptrdiff_t>(off + hlen), all.end());
  return a;
}

}  // namespace peer
