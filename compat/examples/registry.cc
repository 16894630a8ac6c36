// RocksDB's object registry and option framework from a program's side: a
// Customizable base class with its own factories (by name and by pattern),
// options registered with OptionTypeInfo and set from text, written back,
// compared; managed objects; CheckedCast. Built against RocksDB and against
// Strata's compat layer; the output must be identical.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "rocksdb/convenience.h"
#include "rocksdb/customizable.h"
#include "rocksdb/utilities/object_registry.h"
#include "rocksdb/utilities/options_type.h"

using namespace rocksdb;

namespace {

enum class Color { kRed, kGreen, kBlue };
const std::unordered_map<std::string, Color> kColors = {
    {"red", Color::kRed}, {"green", Color::kGreen}, {"blue", Color::kBlue}};

struct Shape {
  int width = 1;
  int height = 2;
};
const std::unordered_map<std::string, OptionTypeInfo> kShapeInfo = {
    {"width", OptionTypeInfo(offsetof(Shape, width), OptionType::kInt)},
    {"height", OptionTypeInfo(offsetof(Shape, height), OptionType::kInt)},
};

struct GearOptions {
  static const char* kName() { return "GearOptions"; }
  int teeth = 10;
  double ratio = 1.5;
  bool greased = false;
  std::string label = "plain";
  uint64_t serial = 7;
  Color color = Color::kRed;
  Shape shape;
  std::vector<std::string> tags;
};

const std::unordered_map<std::string, OptionTypeInfo> kGearInfo = {
    {"teeth", OptionTypeInfo(offsetof(GearOptions, teeth), OptionType::kInt,
                             OptionVerificationType::kNormal, OptionTypeFlags::kMutable)},
    {"ratio", OptionTypeInfo(offsetof(GearOptions, ratio), OptionType::kDouble)},
    {"greased", OptionTypeInfo(offsetof(GearOptions, greased), OptionType::kBoolean)},
    {"label", OptionTypeInfo(offsetof(GearOptions, label), OptionType::kString)},
    {"serial", OptionTypeInfo(offsetof(GearOptions, serial), OptionType::kUInt64T)},
    {"color", OptionTypeInfo::Enum<Color>(offsetof(GearOptions, color), &kColors)},
    {"shape", OptionTypeInfo::Struct("shape", &kShapeInfo, offsetof(GearOptions, shape),
                                     OptionVerificationType::kNormal, OptionTypeFlags::kNone)},
    {"tags", OptionTypeInfo::Vector<std::string>(
                 offsetof(GearOptions, tags), OptionVerificationType::kNormal,
                 OptionTypeFlags::kNone, OptionTypeInfo(0, OptionType::kString))},
    {"old", OptionTypeInfo(0, OptionType::kInt, OptionVerificationType::kDeprecated,
                           OptionTypeFlags::kNone)},
};

class Widget : public Customizable {
 public:
  static const char* Type() { return "Widget"; }
  static Status CreateFromString(const ConfigOptions& opts, const std::string& value,
                                 std::shared_ptr<Widget>* result) {
    // What customizable_util.h's LoadSharedObject does (RocksDB's installed
    // customizable_util.h includes a header it does not install).
    std::string id;
    std::unordered_map<std::string, std::string> opt_map;
    Status s = Customizable::GetOptionsMap(opts, result->get(), value, &id, &opt_map);
    if (!s.ok()) return s;
    if (id.empty()) {
      result->reset();
      return opt_map.empty() ? Status::OK() : Status::NotSupported("Cannot reset object ");
    }
    s = opts.registry->NewSharedObject(id, result);
    if (opts.ignore_unsupported_options && s.IsNotSupported()) return Status::OK();
    if (!s.ok()) return s;
    return Customizable::ConfigureNewObject(opts, result->get(), opt_map);
  }
};

class Gear : public Widget {
 public:
  explicit Gear(const std::string& id = "Gear") : id_(id) {
    RegisterOptions(&options_, &kGearInfo);
  }
  static const char* kClassName() { return "Gear"; }
  const char* Name() const override { return kClassName(); }
  std::string GetId() const override { return id_; }
  GearOptions options_;

 private:
  std::string id_;
};

class Cog : public Widget {
 public:
  static const char* kClassName() { return "Cog"; }
  const char* Name() const override { return kClassName(); }
  const char* NickName() const override { return "SmallGear"; }
};

std::string Sorted(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(';', start);
    if (end == std::string::npos) end = text.size();
    // Keep braces together.
    size_t open = text.find('{', start);
    if (open != std::string::npos && open < end) {
      int depth = 0;
      for (end = open; end < text.size(); ++end) {
        if (text[end] == '{') ++depth;
        if (text[end] == '}' && --depth == 0) break;
      }
      end = text.find(';', end);
      if (end == std::string::npos) end = text.size();
    }
    parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) out += p + ";";
  return out;
}

void Show(const char* what, const Status& s) { printf("%s: %s\n", what, s.ToString().c_str()); }

}  // namespace

int main() {
  auto registry = ObjectRegistry::NewInstance();
  auto library = registry->AddLibrary("program");
  library->AddFactory<Widget>(
      "Gear", [](const std::string& uri, std::unique_ptr<Widget>* guard, std::string*) {
        guard->reset(new Gear(uri));
        return guard->get();
      });
  library->AddFactory<Widget>(ObjectLibrary::PatternEntry("Cog", false).AddNumber(":"),
                              [](const std::string&, std::unique_ptr<Widget>* guard, std::string*) {
                                guard->reset(new Cog());
                                return guard->get();
                              });
  static Cog static_cog;
  library->AddFactory<Widget>("StaticCog", [](const std::string&, std::unique_ptr<Widget>*,
                                              std::string*) { return &static_cog; });
  library->AddFactory<Widget>("Broken",
                              [](const std::string&, std::unique_ptr<Widget>*, std::string* msg) {
                                *msg = "broken on purpose";
                                return static_cast<Widget*>(nullptr);
                              });

  printf("factories: %zu\n", registry->GetFactoryCount(Widget::Type()));
  std::vector<std::string> names;
  registry->GetFactoryNames(Widget::Type(), &names);
  for (const auto& n : names) printf("  %s\n", n.c_str());

  std::shared_ptr<Widget> w;
  Show("shared Gear", registry->NewSharedObject("Gear", &w));
  printf("  name %s id %s\n", w->Name(), w->GetId().c_str());
  Show("shared Cog:12", registry->NewSharedObject("Cog:12", &w));
  printf("  name %s\n", w->Name());
  Show("shared Cog:x", registry->NewSharedObject("Cog:x", &w));
  Show("shared Cog", registry->NewSharedObject("Cog", &w));
  Show("shared Nothing", registry->NewSharedObject("Nothing", &w));
  Show("shared Broken", registry->NewSharedObject("Broken", &w));
  Show("shared StaticCog", registry->NewSharedObject("StaticCog", &w));
  Widget* raw = nullptr;
  Show("static StaticCog", registry->NewStaticObject("StaticCog", &raw));
  printf("  same %d\n", raw == &static_cog);
  Show("static Gear", registry->NewStaticObject("Gear", &raw));
  std::unique_ptr<Widget> unique;
  Show("unique Cog:-3", registry->NewUniqueObject("Cog:-3", &unique));

  for (const char* t : {"A", "A://x", "A://", "Ab", "B:1.5", "B:", "C@1#2", "C", "C@x", "Dee"}) {
    ObjectLibrary::PatternEntry a("A");
    a.AddSeparator("://");
    ObjectLibrary::PatternEntry b("B", false);
    b.AddNumber(":", false);
    auto c = ObjectLibrary::PatternEntry::AsIndividualId("C");
    ObjectLibrary::PatternEntry d("D", false);
    d.AnotherName("Dee").AddSuffix("");
    printf("match %-6s A:%d B:%d C:%d D:%d\n", t, a.Matches(t), b.Matches(t), c.Matches(t),
           d.Matches(t));
  }

  ConfigOptions config;
  config.registry = registry;
  Gear gear;
  Show("configure",
       gear.ConfigureFromString(config,
                                "teeth=12;ratio=0.25;greased=true;label=a\\:b;serial=2k;"
                                "color=blue;shape={width=3;height=4};tags=x:y:z;old=5"));
  const GearOptions* o = gear.GetOptions<GearOptions>();
  printf("  teeth %d ratio %.2f greased %d label %s serial %llu color %d shape %dx%d tags %zu\n",
         o->teeth, o->ratio, o->greased, o->label.c_str(),
         static_cast<unsigned long long>(o->serial), static_cast<int>(o->color), o->shape.width,
         o->shape.height, o->tags.size());
  std::string text;
  Show("option string", gear.GetOptionString(config, &text));
  printf("  %s\n", Sorted(text).c_str());
  for (const char* name :
       {"teeth", "ratio", "label", "shape", "shape.width", "tags", "id", "color", "missing"}) {
    std::string value;
    Status s = gear.GetOption(config, name, &value);
    printf("  get %s: %s [%s]\n", name, s.ToString().c_str(), value.c_str());
  }
  std::unordered_set<std::string> option_names;
  Show("names", gear.GetOptionNames(config, &option_names));
  std::vector<std::string> sorted(option_names.begin(), option_names.end());
  std::sort(sorted.begin(), sorted.end());
  for (const auto& n : sorted) printf("  %s", n.c_str());
  printf("\n");

  Show("bad int", gear.ConfigureFromString(config, "teeth=abc"));
  printf("  teeth still %d\n", o->teeth);
  Show("bad enum", gear.ConfigureFromString(config, "color=purple"));
  Show("unknown", gear.ConfigureFromString(config, "nope=1"));
  Show("bad member", gear.ConfigureFromString(config, "shape={depth=1}"));
  Show("member", gear.ConfigureOption(config, "shape.width", "9"));
  printf("  width %d\n", o->shape.width);
  Show("one", gear.ConfigureOption(config, "teeth", "40"));
  Show("one missing", gear.ConfigureOption(config, "nope", "40"));
  std::unordered_map<std::string, std::string> unused;
  Show("with unused", gear.ConfigureFromMap(config, {{"ratio", "2"}, {"extra", "1"}}, &unused));
  printf("  unused %zu %s\n", unused.size(), unused.begin()->first.c_str());
  ConfigOptions loose = config;
  loose.ignore_unknown_options = true;
  Show("ignore unknown", gear.ConfigureFromString(loose, "nope=1;teeth=41"));
  printf("  teeth %d\n", o->teeth);
  ConfigOptions mut = config;
  mut.mutable_options_only = true;
  Show("mutable only ok", gear.ConfigureFromString(mut, "teeth=42"));
  Show("mutable only refused", gear.ConfigureFromString(mut, "ratio=3"));

  Gear other;
  std::string mismatch;
  printf("equivalent %d", gear.AreEquivalent(config, &other, &mismatch));
  printf(" mismatch %s\n", mismatch.empty() ? "-" : "set");
  Show("copy", other.ConfigureFromString(config, Sorted(text)));
  Show("copy teeth", other.ConfigureOption(config, "teeth", "42"));
  Show("copy ratio", other.ConfigureOption(config, "ratio", "2"));
  Show("copy width", other.ConfigureOption(config, "shape.width", "9"));
  mismatch.clear();
  printf("equivalent %d mismatch [%s]\n", gear.AreEquivalent(config, &other, &mismatch),
         mismatch.c_str());

  std::shared_ptr<Widget> made;
  Show("create {id=Gear;teeth=5}", Widget::CreateFromString(config, "{id=Gear;teeth=5}", &made));
  printf("  teeth %d\n", made->GetOptions<GearOptions>()->teeth);
  Show("create id=Gear;ratio=4", Widget::CreateFromString(config, "id=Gear;ratio=4", &made));
  Show("create Gear;bad", Widget::CreateFromString(config, "id=Gear;bogus=4", &made));
  Show("create unknown", Widget::CreateFromString(config, "Nothing", &made));
  ConfigOptions lax = config;
  lax.ignore_unsupported_options = true;
  std::shared_ptr<Widget> none;
  Show("create unknown lax", Widget::CreateFromString(lax, "Nothing", &none));
  printf("  null %d\n", none == nullptr);
  Show("create empty", Widget::CreateFromString(config, "", &made));
  printf("  null %d\n", made == nullptr);

  std::shared_ptr<Widget> m1;
  std::shared_ptr<Widget> m2;
  Show("managed 1", registry->GetOrCreateManagedObject<Widget>("Gear@1", &m1));
  Show("managed 2", registry->GetOrCreateManagedObject<Widget>("Gear@1", &m2));
  printf("  same %d\n", m1 == m2);
  auto got = registry->GetManagedObject<Widget>("Gear@1");
  printf("  get same %d\n", got == m1);
  auto gear2 = std::make_shared<Gear>("Gear@1");
  Show("set taken", registry->SetManagedObject<Widget>(std::shared_ptr<Widget>(gear2)));
  std::vector<std::shared_ptr<Widget>> listed;
  Show("list", registry->ListManagedObjects<Widget>(&listed));
  printf("  %zu\n", listed.size());
  m1.reset();
  m2.reset();
  got.reset();
  printf("  after release %d\n", registry->GetManagedObject<Widget>("Gear@1") == nullptr);

  Cog cog;
  printf("cast cog->Cog %d cog->Gear %d instance SmallGear %d\n", cog.CheckedCast<Cog>() != nullptr,
         cog.CheckedCast<Gear>() != nullptr, cog.IsInstanceOf("SmallGear"));
  printf("cog string [%s]\n", cog.ToString(config).c_str());

  std::string id;
  std::unordered_map<std::string, std::string> props;
  Show("map", Configurable::GetOptionsMap("{id=X;a=1}", "", &id, &props));
  printf("  id %s props %zu\n", id.c_str(), props.size());
  Show("map bare", Configurable::GetOptionsMap("Y", "D", &id, &props));
  printf("  id %s\n", id.c_str());
  props.clear();
  Show("map default", Configurable::GetOptionsMap("a=1", "D", &id, &props));
  printf("  id %s props %zu\n", id.c_str(), props.size());
  std::string token;
  size_t end = 0;
  Show("token", OptionTypeInfo::NextToken(" {a=1;b=2} ;c", ';', 0, &end, &token));
  printf("  [%s] end %zu\n", token.c_str(), end);
  Show("token bad", OptionTypeInfo::NextToken("{a=1", ';', 0, &end, &token));
  return 0;
}
