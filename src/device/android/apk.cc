#include "device/android/apk.h"

#include <zlib.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "device/android/device_text.h"

namespace roam::device::android {

namespace {

constexpr size_t kMaxManifestBytes = 16u << 20;

uint32_t U32(std::string_view b, size_t at) {
  return static_cast<uint32_t>(static_cast<uint8_t>(b[at])) |
         static_cast<uint32_t>(static_cast<uint8_t>(b[at + 1])) << 8 |
         static_cast<uint32_t>(static_cast<uint8_t>(b[at + 2])) << 16 |
         static_cast<uint32_t>(static_cast<uint8_t>(b[at + 3])) << 24;
}
uint16_t U16(std::string_view b, size_t at) {
  return static_cast<uint16_t>(static_cast<uint8_t>(b[at]) | static_cast<uint8_t>(b[at + 1]) << 8);
}

Status Bad(std::string_view part, size_t offset, std::string_view what) {
  return Status::Corruption(fmt::format("APK: {} at byte {}: {}", part, offset, what));
}

Result<std::string> Inflate(std::string_view data, size_t size) {
  if (size > kMaxManifestBytes) return Bad("AndroidManifest.xml", 0, "larger than 16 MiB");
  std::string out(size, '\0');
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return Status::Unavailable("zlib: inflateInit2");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  inflateEnd(&z);
  if (rc != Z_STREAM_END || z.total_out != size)
    return Bad("AndroidManifest.xml", 0, "its deflated data do not inflate to the stated size");
  return out;
}

// The string pool of a binary XML: every string, as UTF-8.
Result<std::vector<std::string>> StringPool(std::string_view b, size_t at, size_t chunk) {
  if (chunk < 28) return Bad("string pool", at, "header too short");
  const uint32_t count = U32(b, at + 8), flags = U32(b, at + 16), start = U32(b, at + 20);
  const uint16_t header = U16(b, at + 2);
  const bool utf8 = flags & (1u << 8);
  if (header + size_t{count} * 4 > chunk || start > chunk)
    return Bad("string pool", at, "offsets outside the chunk");
  std::vector<std::string> out;
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    size_t p = at + start + U32(b, at + header + i * 4);
    const size_t end = at + chunk;
    std::string s;
    if (utf8) {
      auto len = [&](size_t& q) -> size_t {
        if (q >= end) return 0;
        size_t n = static_cast<uint8_t>(b[q++]);
        if (n & 0x80) n = ((n & 0x7f) << 8) | (q < end ? static_cast<uint8_t>(b[q++]) : 0);
        return n;
      };
      len(p);  // the length in UTF-16 units
      size_t n = len(p);
      if (p + n > end) return Bad("string pool", p, "a string runs past the chunk");
      s.assign(b.substr(p, n));
    } else {
      if (p + 2 > end) return Bad("string pool", p, "a string runs past the chunk");
      size_t n = U16(b, p);
      p += 2;
      if (n & 0x8000) {
        if (p + 2 > end) return Bad("string pool", p, "a string runs past the chunk");
        n = ((n & 0x7fff) << 16) | U16(b, p);
        p += 2;
      }
      if (p + n * 2 > end) return Bad("string pool", p, "a string runs past the chunk");
      for (size_t k = 0; k < n; ++k) {  // the manifest's names are ASCII; others become '?'
        uint16_t c = U16(b, p + k * 2);
        s += c < 0x80 ? static_cast<char>(c) : '?';
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

// The activities of a manifest as its elements come: an <activity> or <activity-alias> opens
// one, its <intent-filter>s fill it, and their end closes them.
class ActivityReader {
 public:
  explicit ActivityReader(std::vector<gui::DeclaredActivity>& out) : out_(out) {}

  // attr(name) is the element's attribute as text ("" when absent or a reference); flag(name)
  // its boolean, if it has one.
  template <typename Attr, typename Flag>
  void Start(const std::string& element, const std::string& package, Attr attr, Flag flag) {
    if (element == "activity" || element == "activity-alias") {
      std::string name = attr("name");
      if (name.starts_with('.')) name = package + name;
      if (name.find('.') == std::string::npos) name = package + "." + name;
      out_.push_back({.name = std::move(name)});
      exported_ = flag("exported");
      filters_ = 0;
      in_activity_ = true;
    } else if (element == "intent-filter" && in_activity_) {
      filter_ = gui::IntentFilter();
      in_filter_ = true;
      typed_ = false;
    } else if (in_filter_ && (element == "action" || element == "category")) {
      auto& list = element == "action" ? filter_.actions : filter_.categories;
      if (std::string name = attr("name"); !name.empty()) list.push_back(std::move(name));
    } else if (in_filter_ && element == "data") {
      if (std::string scheme = attr("scheme"); !scheme.empty()) filter_.schemes.push_back(scheme);
      if (std::string host = attr("host"); !host.empty()) {
        const std::string port = attr("port");
        filter_.hosts.push_back(FilterHost(host, port.empty() ? -1 : std::atoi(port.c_str())));
      }
      for (auto [attribute, kind] : {std::pair{"path", "LITERAL"},
                                     {"pathPrefix", "PREFIX"},
                                     {"pathPattern", "GLOB"},
                                     {"pathAdvancedPattern", "ADVANCED_GLOB"},
                                     {"pathSuffix", "SUFFIX"}})
        if (std::string path = attr(attribute); !path.empty())
          filter_.paths.push_back(FilterPathPrefix(kind, path));
      typed_ = typed_ || !attr("mimeType").empty() || !attr("mimeGroup").empty();
    }
  }

  void End(const std::string& element) {
    if (element == "intent-filter" && in_filter_) {
      in_filter_ = false;
      ++filters_;
      if (!typed_) out_.back().filters.push_back(std::move(filter_));
    } else if ((element == "activity" || element == "activity-alias") && in_activity_) {
      in_activity_ = false;
      out_.back().exported = exported_.value_or(filters_ > 0);
    }
  }

 private:
  std::vector<gui::DeclaredActivity>& out_;
  bool in_activity_ = false, in_filter_ = false, typed_ = false;
  std::optional<bool> exported_;  // android:exported, when the activity says
  int filters_ = 0;  // its filters, typed ones included (Android's default counts them)
  gui::IntentFilter filter_;
};

}  // namespace

Result<ApkManifest> ReadBinaryManifest(std::string_view b) {
  if (b.size() < 8 || U16(b, 0) != 0x0003)
    return Bad("AndroidManifest.xml", 0, "not binary XML (no RES_XML_TYPE header)");
  std::vector<std::string> strings;
  ApkManifest m;
  ActivityReader activities(m.activities);
  bool in_manifest = false;
  size_t at = U16(b, 2);
  auto str = [&](uint32_t i) { return i < strings.size() ? strings[i] : std::string(); };
  while (at + 8 <= b.size()) {
    const uint16_t type = U16(b, at);
    const size_t chunk = U32(b, at + 4);
    if (chunk < 8 || at + chunk > b.size()) return Bad("AndroidManifest.xml", at, "bad chunk size");
    if (type == 0x0001) {
      auto pool = StringPool(b, at, chunk);
      if (!pool.ok()) return pool.status();
      strings = std::move(*pool);
    } else if (type == 0x0103) {  // end element
      if (chunk < 24) return Bad("AndroidManifest.xml", at, "element chunk too short");
      activities.End(str(U32(b, at + U16(b, at + 2) + 4)));
    } else if (type == 0x0102) {  // start element
      if (chunk < 36) return Bad("AndroidManifest.xml", at, "element chunk too short");
      const size_t ext = at + U16(b, at + 2);
      const std::string name = str(U32(b, ext + 4));
      const size_t attr_start = U16(b, ext + 8), attr_size = U16(b, ext + 10);
      const size_t count = U16(b, ext + 12);
      if (attr_size < 20 || ext + attr_start + count * attr_size > at + chunk)
        return Bad("AndroidManifest.xml", at, "attributes outside the element");
      // Each attribute: its name, and its value as text (a string, or a decimal integer) or as
      // a boolean; a reference (@string/...) is neither.
      std::map<std::string, std::string> text;
      std::map<std::string, bool> flags;
      for (size_t k = 0; k < count; ++k) {
        const size_t a = ext + attr_start + k * attr_size;
        const std::string attr = str(U32(b, a + 4));
        const uint32_t raw = U32(b, a + 8);
        const uint8_t data_type = static_cast<uint8_t>(b[a + 15]);
        const uint32_t data = U32(b, a + 16);
        if (data_type == 0x03) {
          text[attr] = str(data);
        } else if (data_type == 0x10 || data_type == 0x11) {
          text[attr] =
              std::to_string(data_type == 0x10 ? static_cast<int64_t>(static_cast<int32_t>(data))
                                               : static_cast<int64_t>(data));
          if (name == "manifest" && attr == "versionCode") m.version_code = data;
        } else if (data_type == 0x12) {
          flags[attr] = data != 0;
        } else if (raw != 0xffffffff) {
          text[attr] = str(raw);
        }
      }
      auto attr = [&](const std::string& key) {
        auto it = text.find(key);
        return it == text.end() ? std::string() : it->second;
      };
      if (name == "manifest") {
        in_manifest = true;
        m.package = attr("package");
        m.version_name = attr("versionName");
      } else if (name == "instrumentation" && m.instrumentation_runner.empty()) {
        m.instrumentation_runner = attr("name");
        m.instrumentation_target = attr("targetPackage");
      }
      activities.Start(name, m.package, attr, [&](const std::string& key) -> std::optional<bool> {
        auto it = flags.find(key);
        if (it == flags.end()) return std::nullopt;
        return it->second;
      });
    }
    at += chunk;
  }
  if (!in_manifest || m.package.empty())
    return Bad("AndroidManifest.xml", 0, "no <manifest package=...> element");
  return m;
}

Result<ApkManifest> ReadApkManifest(std::string_view z) {
  // The end of central directory record: within the last 64 KiB + 22 bytes.
  if (z.size() < 22) return Bad("zip", 0, "shorter than an end-of-central-directory record");
  size_t eocd = std::string_view::npos;
  for (size_t p = z.size() - 22;; --p) {
    if (U32(z, p) == 0x06054b50) {
      eocd = p;
      break;
    }
    if (p == 0 || z.size() - p > 65557) break;
  }
  if (eocd == std::string_view::npos)
    return Bad("zip", z.size(), "no end-of-central-directory record");
  const size_t entries = U16(z, eocd + 10);
  size_t p = U32(z, eocd + 16);
  for (size_t i = 0; i < entries; ++i) {
    if (p + 46 > z.size() || U32(z, p) != 0x02014b50)
      return Bad("zip central directory", p, "not a central directory header");
    const uint16_t method = U16(z, p + 10);
    const size_t csize = U32(z, p + 20), usize = U32(z, p + 24);
    const size_t n = U16(z, p + 28), extra = U16(z, p + 30), comment = U16(z, p + 32);
    const size_t local = U32(z, p + 42);
    if (p + 46 + n > z.size()) return Bad("zip central directory", p, "a name past the end");
    if (z.substr(p + 46, n) == "AndroidManifest.xml") {
      if (local + 30 > z.size() || U32(z, local) != 0x04034b50)
        return Bad("zip", local, "not a local file header");
      const size_t data = local + 30 + U16(z, local + 26) + U16(z, local + 28);
      if (data + csize > z.size()) return Bad("zip", data, "AndroidManifest.xml runs past the end");
      if (method == 0) return ReadBinaryManifest(z.substr(data, csize));
      if (method != 8) return Bad("zip", p, fmt::format("compression method {}", method));
      auto axml = Inflate(z.substr(data, csize), usize);
      if (!axml.ok()) return axml.status();
      return ReadBinaryManifest(*axml);
    }
    p += 46 + n + extra + comment;
  }
  return Bad("zip", U32(z, eocd + 16), "no AndroidManifest.xml in the central directory");
}

}  // namespace roam::device::android
