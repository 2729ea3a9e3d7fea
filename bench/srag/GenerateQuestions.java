import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.zip.GZIPInputStream;

/**
 * Standalone generator of multi-entity benchmark questions for SRAG (see QUESTIONS.md).
 *
 * <p>Gold answers are computed here directly from the triples; nothing from the kgrag project is used.
 * Run from the repository root:
 * <pre>
 * java bench/srag/GenerateQuestions.java --kg metaqa|fb15k --data ../shared/data --split dev|test \
 *      --out FILE.jsonl [--seed 7] [--per-type 40]
 * </pre>
 * Deterministic: sorted collections everywhere, one seeded {@link Random} per question type.
 */
public class GenerateQuestions {

    static final String[] TYPES = {"aggregation", "distribution", "superlative", "intercomparison",
            "distribution_compliance", "correlation", "variance", "relationship", "hypothetical"};

    /** Entity sets must have this many members. */
    static final int MIN_SET = 5, MAX_SET = 500;
    /** Jarque–Bera critical value (chi-square, 2 degrees of freedom, 5 %). */
    static final double JB_CRIT = 5.991;

    /** Ties and lists: case-insensitive order first, then natural (code point) order. */
    static final Comparator<String> ORD =
            String.CASE_INSENSITIVE_ORDER.thenComparing(Comparator.naturalOrder());

    /** Fixed plural table for genre labels; other genres are written "films with the genre X". */
    static final Map<String, String> GENRE_PLURAL = new TreeMap<>(Map.of(
            "Drama", "dramas", "Comedy", "comedies", "Thriller", "thrillers", "Western", "westerns",
            "Musical", "musicals", "Documentary", "documentaries", "Mystery", "mysteries", "Romance", "romances"));
    /** Fixed group nouns for FB15k-237 gender labels. */
    static final Map<String, String> GENDER_GROUP = new TreeMap<>(Map.of("Male", "men", "Female", "women"));

    // ------------------------------------------------------------------ main

    public static void main(String[] args) throws IOException {
        Map<String, String> opt = new TreeMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) usage("unexpected argument " + args[i]);
            opt.put(args[i].substring(2), args[i + 1]);
        }
        if (args.length % 2 != 0) usage("missing value for " + args[args.length - 1]);
        String kgName = opt.get("kg"), data = opt.get("data"), split = opt.get("split"), out = opt.get("out");
        if (kgName == null || data == null || split == null || out == null) usage("--kg, --data, --split and --out are required");
        if (!kgName.equals("metaqa") && !kgName.equals("fb15k")) usage("--kg must be metaqa or fb15k");
        if (!split.equals("dev") && !split.equals("test")) usage("--split must be dev or test");
        long seed = Long.parseLong(opt.getOrDefault("seed", "7"));
        int perType = Integer.parseInt(opt.getOrDefault("per-type", "40"));
        if (perType < 1 || perType > 999) usage("--per-type must be 1..999");

        Kg kg = kgName.equals("metaqa") ? Kg.loadMetaqa(Path.of(data, "metaqa", "kb.txt"))
                : Kg.loadFb(Path.of(data, "fb15k-237", "FB15k-237.tar.gz"), Path.of(data, "fb15k-237", "entity2name.tsv"));
        Schema schema = kgName.equals("metaqa") ? Schema.metaqa() : Schema.fb();
        Generator gen = new Generator(kg, schema, split);
        System.err.printf("%s %s: %d entity sets with %d-%d members (%d small, %d medium, %d large)%n", kgName, split,
                gen.sets.size(), MIN_SET, MAX_SET, gen.sets.stream().filter(s -> s.bucket().equals("1-small")).count(),
                gen.sets.stream().filter(s -> s.bucket().equals("2-medium")).count(),
                gen.sets.stream().filter(s -> s.bucket().equals("3-large")).count());

        StringBuilder sb = new StringBuilder();
        for (int t = 0; t < TYPES.length; t++) {
            String type = TYPES[t];
            Random rng = new Random(seed * 31 + t); // one stream per type: types do not disturb each other
            List<Cand> cands = gen.generate(type, rng);
            List<Cand> chosen = select(cands, perType, rng);
            int n = 0;
            for (Cand c : chosen) {
                n++;
                String qid = String.format("%s-%s-%s-%03d", kgName, split, type, n);
                sb.append("{\"qid\": ").append(json(qid))
                        .append(", \"question\": ").append(json(c.text))
                        .append(", \"answers\": [").append(json(c.answer)).append(']')
                        .append(", \"type\": ").append(json(type))
                        .append(", \"set_size\": ").append(c.set.size())
                        .append(", \"anchor\": ").append(json(c.set.label))
                        .append(", \"relation\": ").append(json(c.set.rel.rel()))
                        .append(", \"kg\": ").append(json(kgName)).append("}\n");
            }
            System.err.printf("  %-24s %3d of %d wanted (%d candidates)%s%n", type, chosen.size(), perType,
                    cands.size(), describe(chosen));
        }
        Path outPath = Path.of(out);
        if (outPath.getParent() != null) Files.createDirectories(outPath.getParent());
        Files.write(outPath, sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    static void usage(String msg) {
        System.err.println("error: " + msg);
        System.err.println("usage: java bench/srag/GenerateQuestions.java --kg metaqa|fb15k --data ../shared/data"
                + " --split dev|test --out FILE.jsonl [--seed 7] [--per-type 40]");
        System.exit(2);
    }

    /** A short summary for stderr: size buckets and, for yes/no types, the answers. */
    static String describe(List<Cand> chosen) {
        Map<String, Integer> b = new TreeMap<>();
        for (Cand c : chosen) {
            b.merge(c.set.bucket().substring(2), 1, Integer::sum);
            if (c.answer.equals("yes") || c.answer.equals("no")) b.merge(c.answer, 1, Integer::sum);
        }
        return b.isEmpty() ? "" : " " + b;
    }

    /** Minimal JSON string escaper: quotes, backslash and control characters. */
    static String json(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
                    else b.append(ch);
                }
            }
        }
        return b.append('"').toString();
    }

    // ------------------------------------------------------------------ knowledge graph

    static final class Kg {
        /** relation -> head -> tails (sorted). */
        final Map<String, TreeMap<String, TreeSet<String>>> fwd = new TreeMap<>();
        /** relation -> tail -> heads (sorted). */
        final Map<String, TreeMap<String, TreeSet<String>>> rev = new TreeMap<>();
        /** MID -> name (FB15k-237 only; MetaQA ids are their labels). Used for look-ups only. */
        final Map<String, String> names = new HashMap<>();
        /** Ids whose label is shared with another id (or that have no label). Look-ups only. */
        final Set<String> ambiguous = new HashSet<>();
        boolean named;

        void add(String h, String r, String t) {
            fwd.computeIfAbsent(r, k -> new TreeMap<>()).computeIfAbsent(h, k -> new TreeSet<>()).add(t);
            rev.computeIfAbsent(r, k -> new TreeMap<>()).computeIfAbsent(t, k -> new TreeSet<>()).add(h);
        }

        String label(String id) {
            return named ? names.getOrDefault(id, id) : id;
        }

        /** Rule: an FB15k-237 entity whose name is shared by more than one MID is never an anchor or an answer value. */
        boolean clean(String id) {
            return !ambiguous.contains(id);
        }

        TreeSet<String> tails(String rel, String head) {
            TreeMap<String, TreeSet<String>> m = fwd.get(rel);
            TreeSet<String> s = m == null ? null : m.get(head);
            return s == null ? EMPTY : s;
        }

        static final TreeSet<String> EMPTY = new TreeSet<>();

        static Kg loadMetaqa(Path kb) throws IOException {
            Kg kg = new Kg();
            try (BufferedReader r = Files.newBufferedReader(kb, StandardCharsets.UTF_8)) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.isEmpty()) continue;
                    String[] p = line.split("\\|", -1);
                    if (p.length != 3) throw new IOException("bad MetaQA line: " + line);
                    kg.add(p[0], p[1], p[2]);
                }
            }
            return kg;
        }

        static Kg loadFb(Path tarGz, Path names) throws IOException {
            Kg kg = new Kg();
            kg.named = true;
            Map<String, byte[]> files = readTarGz(tarGz);
            for (String f : List.of("train.txt", "valid.txt", "test.txt")) {
                byte[] bytes = files.get(f);
                if (bytes == null) throw new IOException(f + " not found in " + tarGz);
                BufferedReader r = new BufferedReader(new StringReader(new String(bytes, StandardCharsets.UTF_8)));
                for (String line; (line = r.readLine()) != null; ) { // readLine drops the CR of CRLF
                    if (line.isEmpty()) continue;
                    String[] p = line.split("\t", -1);
                    if (p.length != 3) throw new IOException("bad FB15k-237 line in " + f + ": " + line);
                    kg.add(p[0], p[1], p[2]);
                }
            }
            Map<String, Integer> nameCount = new HashMap<>();
            for (String line : Files.readAllLines(names, StandardCharsets.UTF_8)) {
                if (line.endsWith("\r")) line = line.substring(0, line.length() - 1);
                if (line.isEmpty()) continue;
                int tab = line.indexOf('\t');
                String mid = line.substring(0, tab), name = line.substring(tab + 1).trim();
                kg.names.put(mid, name);
                nameCount.merge(name, 1, Integer::sum);
            }
            for (Map.Entry<String, String> e : kg.names.entrySet())
                if (nameCount.get(e.getValue()) > 1 || e.getValue().isEmpty()) kg.ambiguous.add(e.getKey());
            // entities with no name at all cannot be named in a question either
            for (TreeMap<String, TreeSet<String>> m : kg.fwd.values())
                for (Map.Entry<String, TreeSet<String>> e : m.entrySet()) {
                    if (!kg.names.containsKey(e.getKey())) kg.ambiguous.add(e.getKey());
                    for (String t : e.getValue()) if (!kg.names.containsKey(t)) kg.ambiguous.add(t);
                }
            return kg;
        }

        /** Minimal ustar reader: 512-byte headers, name at 0..100, octal size at 124..136. */
        static Map<String, byte[]> readTarGz(Path p) throws IOException {
            Map<String, byte[]> out = new TreeMap<>();
            try (InputStream in = new GZIPInputStream(Files.newInputStream(p), 1 << 16)) {
                byte[] hdr = new byte[512];
                while (readFully(in, hdr, 512)) {
                    boolean zero = true;
                    for (byte b : hdr) if (b != 0) { zero = false; break; }
                    if (zero) break; // end-of-archive block
                    String name = cString(hdr, 0, 100);
                    String prefix = cString(hdr, 345, 155);
                    if (!prefix.isEmpty() && hdr[257] == 'u') name = prefix + "/" + name;
                    long size = Long.parseLong(cString(hdr, 124, 12).trim().isEmpty() ? "0" : cString(hdr, 124, 12).trim(), 8);
                    char typeFlag = (char) hdr[156];
                    byte[] body = new byte[(int) size];
                    if (!readFully(in, body, (int) size)) throw new IOException("truncated tar entry " + name);
                    long pad = (512 - size % 512) % 512;
                    if (!readFully(in, new byte[(int) pad], (int) pad)) throw new IOException("truncated tar padding");
                    if (typeFlag == '0' || typeFlag == 0) {
                        String base = name.substring(name.lastIndexOf('/') + 1);
                        out.put(base, body);
                    }
                }
            }
            return out;
        }

        static boolean readFully(InputStream in, byte[] buf, int n) throws IOException {
            int off = 0;
            while (off < n) {
                int k = in.read(buf, off, n - off);
                if (k < 0) return false;
                off += k;
            }
            return true;
        }

        static String cString(byte[] b, int off, int len) {
            int end = off;
            while (end < off + len && b[end] != 0) end++;
            return new String(b, off, end - off, StandardCharsets.UTF_8);
        }
    }

    // ------------------------------------------------------------------ schema: sets and properties

    enum Kind { FILM, PERSON }

    /** A set-defining relation: members are the heads h of (h, rel, anchor). */
    record SetRel(String rel, Kind kind, String phrase) {}

    /**
     * A categorical property (multi-valued unless the data says otherwise).
     * pred: verb phrase after "How many films ...", group: noun phrase naming the members with a value.
     */
    record Cat(String key, String rel, Kind kind, String noun, String nouns, String pred, String group, boolean year) {}

    /** A numeric property: the release year (only for films with exactly one) or a count of a relation's values. */
    record Num(String key, String rel, Kind kind, boolean year, String noun, String nouns, String unit, String units) {}

    record Schema(List<SetRel> setRels, List<Cat> cats, List<Num> nums, Map<String, List<String>> use) {

        static Schema metaqa() {
            Kind F = Kind.FILM;
            List<SetRel> sets = List.of(
                    new SetRel("directed_by", F, "directed by %s"),
                    new SetRel("written_by", F, "written by %s"),
                    new SetRel("starred_actors", F, "starring %s"),
                    new SetRel("in_language", F, "in %s"),
                    new SetRel("has_genre", F, "with the genre %s"),
                    new SetRel("has_tags", F, "tagged %s"));
            List<Cat> cats = List.of(
                    new Cat("genre", "has_genre", F, "genre", "genres", "have the genre %s", "%s with the genre %s", false),
                    new Cat("language", "in_language", F, "language", "languages", "are in %s", "%s in %s", false),
                    new Cat("year", "release_year", F, "release year", "release years", "were released in %s", "%s released in %s", true),
                    new Cat("actor", "starred_actors", F, "actor", "actors", "star %s", "%s starring %s", false),
                    new Cat("writer", "written_by", F, "writer", "writers", "were written by %s", "%s written by %s", false),
                    new Cat("director", "directed_by", F, "director", "directors", "were directed by %s", "%s directed by %s", false),
                    new Cat("tag", "has_tags", F, "tag", "tags", "are tagged %s", "%s tagged %s", false));
            List<Num> nums = List.of(
                    new Num("year", "release_year", F, true, "release year", "release years", null, null),
                    new Num("actors", "starred_actors", F, false, "number of actors", "numbers of actors", "actor", "actors"),
                    new Num("writers", "written_by", F, false, "number of writers", "numbers of writers", "writer", "writers"),
                    new Num("genres", "has_genre", F, false, "number of genres", "numbers of genres", "genre", "genres"),
                    new Num("tags", "has_tags", F, false, "number of tags", "numbers of tags", "tag", "tags"));
            Map<String, List<String>> use = new TreeMap<>();
            use.put("aggregation.cat", List.of("genre", "language", "year", "actor", "writer", "director", "tag"));
            use.put("aggregation.num", List.of("year", "actors", "genres", "tags"));
            use.put("distribution.cat", List.of("genre", "language", "year"));
            use.put("superlative.cat", List.of("genre", "language", "year", "actor", "writer", "director"));
            use.put("superlative.num", List.of("year", "actors", "genres", "tags"));
            use.put("intercomparison.cat", List.of("genre", "language", "actor", "writer", "director"));
            use.put("distribution_compliance.num", List.of("year", "actors", "tags"));
            use.put("correlation.num", List.of("year", "actors", "genres", "tags"));
            use.put("variance.cat", List.of("genre", "language"));
            use.put("variance.num", List.of("year", "actors"));
            use.put("relationship.cat", List.of("actor", "writer", "director", "genre", "language", "tag"));
            use.put("hypothetical.cat", List.of("genre", "language", "actor", "writer", "director"));
            return new Schema(sets, cats, nums, use);
        }

        static Schema fb() {
            Kind F = Kind.FILM, P = Kind.PERSON;
            List<SetRel> sets = List.of(
                    new SetRel("/people/person/place_of_birth", P, "born in %s"),
                    new SetRel("/people/deceased_person/place_of_death", P, "who died in %s"),
                    new SetRel("/people/person/nationality", P, "with the nationality %s"),
                    new SetRel("/people/person/profession", P, "with the profession %s"),
                    new SetRel("/film/film/genre", F, "with the genre %s"),
                    new SetRel("/film/film/country", F, "from %s"),
                    new SetRel("/film/film/language", F, "in %s"));
            List<Cat> cats = List.of(
                    new Cat("gender", "/people/person/gender", P, "gender", "genders", "have the gender %s", "%s with the gender %s", false),
                    new Cat("nationality", "/people/person/nationality", P, "nationality", "nationalities", "have the nationality %s", "%s with the nationality %s", false),
                    new Cat("profession", "/people/person/profession", P, "profession", "professions", "have the profession %s", "%s with the profession %s", false),
                    new Cat("genre", "/film/film/genre", F, "genre", "genres", "have the genre %s", "%s with the genre %s", false),
                    new Cat("language", "/film/film/language", F, "language", "languages", "are in %s", "%s in %s", false),
                    new Cat("country", "/film/film/country", F, "country", "countries", "are from %s", "%s from %s", false));
            List<Num> nums = List.of(
                    new Num("professions", "/people/person/profession", P, false, "number of professions", "numbers of professions", "profession", "professions"),
                    new Num("nationalities", "/people/person/nationality", P, false, "number of nationalities", "numbers of nationalities", "nationality", "nationalities"),
                    new Num("genres", "/film/film/genre", F, false, "number of genres", "numbers of genres", "genre", "genres"),
                    new Num("languages", "/film/film/language", F, false, "number of languages", "numbers of languages", "language", "languages"),
                    new Num("countries", "/film/film/country", F, false, "number of countries", "numbers of countries", "country", "countries"));
            List<String> allCats = List.of("gender", "nationality", "profession", "genre", "language", "country");
            List<String> allNums = List.of("professions", "nationalities", "genres", "languages", "countries");
            Map<String, List<String>> use = new TreeMap<>();
            use.put("aggregation.cat", allCats);
            use.put("aggregation.num", allNums);
            use.put("distribution.cat", allCats);
            use.put("superlative.cat", allCats);
            use.put("superlative.num", allNums);
            use.put("intercomparison.cat", allCats);
            use.put("distribution_compliance.num", allNums);
            use.put("correlation.num", allNums);
            use.put("variance.cat", allCats);
            use.put("variance.num", allNums);
            use.put("relationship.cat", allCats);
            use.put("hypothetical.cat", allCats);
            return new Schema(sets, cats, nums, use);
        }
    }

    /** One entity set: {h : (h, rel, anchor)}. */
    static final class SetDef {
        final SetRel rel;
        final String anchor, label;
        final List<String> members; // sorted ids
        final boolean yearOk;       // no member has more than one release year

        SetDef(SetRel rel, String anchor, String label, List<String> members, boolean yearOk) {
            this.rel = rel; this.anchor = anchor; this.label = label; this.members = members; this.yearOk = yearOk;
        }

        int size() { return members.size(); }

        String key() { return rel.rel() + "|" + anchor; }

        /** Size buckets used to spread questions: small 5–20, medium 21–100, large 101–500. */
        String bucket() { return size() <= 20 ? "1-small" : size() <= 100 ? "2-medium" : "3-large"; }

        String phrase() { return String.format(rel.phrase(), label); }
    }

    /** Type words: plural and singular, chosen once per question. */
    record Tw(String pl, String sg) {}

    static Tw tw(Kind k, Random rng) {
        if (k == Kind.FILM) return rng.nextBoolean() ? new Tw("films", "film") : new Tw("movies", "movie");
        return rng.nextBoolean() ? new Tw("people", "person") : new Tw("persons", "person");
    }

    // ------------------------------------------------------------------ candidates and selection

    static final class Cand {
        final SetDef set;
        final String text, answer;
        final List<String> strata; // balance levels, outermost first
        final int priority;        // 0 preferred, 1 only when too few preferred ones
        boolean chosen;

        Cand(SetDef set, String text, String answer, List<String> strata, int priority) {
            this.set = set; this.text = text; this.answer = answer; this.strata = strata; this.priority = priority;
        }
    }

    /** A balancing tree: each pick descends into the least-picked child (ties broken by the RNG). */
    static final class Node {
        final TreeMap<String, Node> kids = new TreeMap<>();
        final ArrayDeque<Cand> items = new ArrayDeque<>();
        int picked;
        boolean dead;
    }

    static Cand pick(Node n, Random rng, Predicate<Cand> ok) {
        if (n.kids.isEmpty()) {
            while (!n.items.isEmpty()) {
                Cand c = n.items.poll();
                if (ok.test(c)) { n.picked++; return c; }
            }
            n.dead = true;
            return null;
        }
        while (true) {
            int min = Integer.MAX_VALUE;
            for (Node k : n.kids.values()) if (!k.dead) min = Math.min(min, k.picked);
            if (min == Integer.MAX_VALUE) { n.dead = true; return null; }
            List<Node> best = new ArrayList<>();
            for (Node k : n.kids.values()) if (!k.dead && k.picked == min) best.add(k);
            Cand c = pick(best.get(rng.nextInt(best.size())), rng, ok);
            if (c != null) { n.picked++; return c; }
        }
    }

    /**
     * Picks up to n candidates: shuffled, balanced over the strata levels, no repeated question text, each entity
     * set at most once per type (relaxed only when too few), preferred (priority 0) before fallback ones.
     */
    static List<Cand> select(List<Cand> all, int n, Random rng) {
        List<Cand> pool = new ArrayList<>(all);
        Collections.shuffle(pool, rng);
        List<Cand> out = new ArrayList<>();
        Set<String> texts = new HashSet<>(), sets = new HashSet<>(); // look-ups only
        for (int pass = 0; pass < 2; pass++) {
            boolean uniqueSets = pass == 0;
            for (int pr = 0; pr <= 1 && out.size() < n; pr++) {
                Node root = new Node();
                for (Cand c : pool) {
                    if (c.chosen || c.priority != pr) continue;
                    Node node = root;
                    for (String s : c.strata) node = node.kids.computeIfAbsent(s, k -> new Node());
                    node.items.add(c);
                }
                Predicate<Cand> ok = c -> !texts.contains(c.text) && !(uniqueSets && sets.contains(c.set.key()));
                while (out.size() < n) {
                    Cand c = pick(root, rng, ok);
                    if (c == null) break;
                    c.chosen = true;
                    out.add(c);
                    texts.add(c.text);
                    sets.add(c.set.key());
                }
            }
        }
        return out;
    }

    /** Keeps at most max items of a list, chosen by the RNG (order kept). */
    static <T> List<T> sample(List<T> list, int max, Random rng) {
        if (list.size() <= max) return list;
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) idx.add(i);
        Collections.shuffle(idx, rng);
        List<Integer> keep = new ArrayList<>(idx.subList(0, max));
        Collections.sort(keep);
        List<T> out = new ArrayList<>();
        for (int i : keep) out.add(list.get(i));
        return out;
    }

    /** Keeps at most max preferred (priority 0) and at most max fallback candidates of one set and property. */
    static List<Cand> keep(List<Cand> local, int max, Random rng) {
        List<Cand> preferred = new ArrayList<>(), fallback = new ArrayList<>();
        for (Cand c : local) (c.priority == 0 ? preferred : fallback).add(c);
        List<Cand> out = new ArrayList<>(sample(preferred, max, rng));
        out.addAll(sample(fallback, max, rng));
        return out;
    }

    static String pickOne(Random rng, String... options) {
        return options[rng.nextInt(options.length)];
    }

    // ------------------------------------------------------------------ statistics

    /** Jarque–Bera statistic with population moments; NaN when m2 = 0. */
    static double jarqueBera(List<Integer> xs) {
        int n = xs.size();
        double mean = 0;
        for (int x : xs) mean += x;
        mean /= n;
        double m2 = 0, m3 = 0, m4 = 0;
        for (int x : xs) {
            double d = x - mean;
            m2 += d * d; m3 += d * d * d; m4 += d * d * d * d;
        }
        m2 /= n; m3 /= n; m4 /= n;
        if (m2 == 0) return Double.NaN;
        double s = m3 / Math.pow(m2, 1.5), k = m4 / (m2 * m2) - 3;
        return n / 6.0 * (s * s + k * k / 4);
    }

    /** Pearson r; NaN when either variable is constant. */
    static double pearson(List<Integer> xs, List<Integer> ys) {
        int n = xs.size();
        double mx = 0, my = 0;
        for (int i = 0; i < n; i++) { mx += xs.get(i); my += ys.get(i); }
        mx /= n; my /= n;
        double sxy = 0, sxx = 0, syy = 0;
        for (int i = 0; i < n; i++) {
            double dx = xs.get(i) - mx, dy = ys.get(i) - my;
            sxy += dx * dy; sxx += dx * dx; syy += dy * dy;
        }
        if (sxx == 0 || syy == 0) return Double.NaN;
        return sxy / Math.sqrt(sxx * syy);
    }

    /** Sample variance (divide by n - 1). */
    static double sampleVariance(List<Integer> xs) {
        double mean = 0;
        for (int x : xs) mean += x;
        mean /= xs.size();
        double ss = 0;
        for (int x : xs) ss += (x - mean) * (x - mean);
        return ss / (xs.size() - 1);
    }

    // ------------------------------------------------------------------ generator

    static final class Generator {
        final Kg kg;
        final Schema schema;
        final List<SetDef> sets = new ArrayList<>();

        Generator(Kg kg, Schema schema, String split) {
            this.kg = kg;
            this.schema = schema;
            for (SetRel sr : schema.setRels()) {
                TreeMap<String, TreeSet<String>> byTail = kg.rev.get(sr.rel());
                if (byTail == null) continue;
                for (Map.Entry<String, TreeSet<String>> e : byTail.entrySet()) {
                    int n = e.getValue().size();
                    if (n < MIN_SET || n > MAX_SET) continue;          // rule: 5..500 members
                    if (!kg.clean(e.getKey())) continue;                // rule: no ambiguous anchor names
                    String label = kg.label(e.getKey());
                    if (!splitOf(label).equals(split)) continue;        // rule: split by anchor label hash
                    List<String> members = new ArrayList<>(e.getValue());
                    boolean yearOk = true;                              // rule: year questions need <= 1 year each
                    for (String m : members) if (kg.tails("release_year", m).size() > 1) { yearOk = false; break; }
                    sets.add(new SetDef(sr, e.getKey(), label, members, yearOk));
                }
            }
        }

        /** dev when FNV-1a 32-bit of the anchor label's UTF-8 bytes is even, else test. */
        static String splitOf(String label) {
            int h = 0x811c9dc5;
            for (byte b : label.getBytes(StandardCharsets.UTF_8)) {
                h ^= (b & 0xff);
                h *= 0x01000193;
            }
            return (Integer.toUnsignedLong(h) % 2 == 0) ? "dev" : "test";
        }

        List<Cand> generate(String type, Random rng) {
            return switch (type) {
                case "aggregation" -> aggregation(rng);
                case "distribution" -> distribution(rng);
                case "superlative" -> superlative(rng);
                case "intercomparison" -> intercomparison(rng);
                case "distribution_compliance" -> distributionCompliance(rng);
                case "correlation" -> correlation(rng);
                case "variance" -> variance(rng);
                case "relationship" -> relationship(rng);
                case "hypothetical" -> hypothetical(rng);
                default -> throw new IllegalArgumentException(type);
            };
        }

        // ---------------- property helpers

        /** Categorical properties usable on a set for a type: right member kind, year only on sets where no member
         *  has two release years, and for distribution and superlative (mode) not the defining relation (its anchor
         *  value would be a group holding the whole set). Other types may use the defining relation's other values
         *  ("films starring X that star Y"); the anchor value itself is dropped by {@link #values}. */
        List<Cat> cats(String type, SetDef s) {
            boolean noDefining = type.equals("distribution") || type.equals("superlative");
            List<Cat> out = new ArrayList<>();
            List<String> keys = schema.use().getOrDefault(type + ".cat", List.of());
            for (String k : keys)
                for (Cat c : schema.cats())
                    if (c.key().equals(k) && c.kind() == s.rel.kind() && !(noDefining && c.rel().equals(s.rel.rel()))
                            && (!c.year() || s.yearOk))
                        out.add(c);
            return out;
        }

        List<Num> nums(String type, SetDef s) {
            List<Num> out = new ArrayList<>();
            List<String> keys = schema.use().getOrDefault(type + ".num", List.of());
            for (String k : keys)
                for (Num q : schema.nums())
                    if (q.key().equals(k) && q.kind() == s.rel.kind() && (!q.year() || s.yearOk)) out.add(q);
            return out;
        }

        /** Distinct values of a member (a member counts once per distinct value); the set's own anchor is never a
         *  value of the defining relation here. */
        TreeSet<String> values(SetDef s, Cat c, String member) {
            TreeSet<String> v = kg.tails(c.rel(), member);
            if (c.year() && v.size() > 1) return Kg.EMPTY; // never reached on yearOk sets
            if (c.rel().equals(s.rel.rel()) && v.contains(s.anchor)) {
                v = new TreeSet<>(v);
                v.remove(s.anchor);
            }
            return v;
        }

        /** value id -> number of members having it. */
        TreeMap<String, Integer> counts(SetDef s, Cat c) {
            TreeMap<String, Integer> m = new TreeMap<>();
            for (String mem : s.members) for (String v : values(s, c, mem)) m.merge(v, 1, Integer::sum);
            return m;
        }

        /** Members having any value of the property (the "whole set" for year filters). */
        int withValue(SetDef s, Cat c) {
            int n = 0;
            for (String mem : s.members) if (!values(s, c, mem).isEmpty()) n++;
            return n;
        }

        /** Numeric value of a member: the release year when it has exactly one, else absent; counts are 0 when none. */
        Integer num(Num q, String member) {
            TreeSet<String> v = kg.tails(q.rel(), member);
            if (q.year()) return v.size() == 1 ? Integer.valueOf(Integer.parseInt(v.first())) : null;
            return v.size();
        }

        /** member -> value, for members having a value (sorted by member id). */
        TreeMap<String, Integer> numValues(SetDef s, Num q) {
            TreeMap<String, Integer> m = new TreeMap<>();
            for (String mem : s.members) {
                Integer x = num(q, mem);
                if (x != null) m.put(mem, x);
            }
            return m;
        }

        String lab(String id) { return kg.label(id); }

        String setPl(SetDef s, Tw tw) { return tw.pl() + " " + s.phrase(); }

        String setSg(SetDef s, Tw tw) { return tw.sg() + " " + s.phrase(); }

        /** Verb phrase "have the genre Comedy" / "are comedies" / "star Tom Hanks" / "feature Tom Hanks". */
        String pred(Cat c, String v, Random rng) {
            String l = lab(v);
            if (c.key().equals("genre") && GENRE_PLURAL.containsKey(l) && rng.nextBoolean()) return "are " + GENRE_PLURAL.get(l);
            if (c.key().equals("actor") && rng.nextBoolean()) return "feature " + l;
            return String.format(c.pred(), l);
        }

        /** Noun phrase for the members with a value: "comedies", "women", "films starring Tom Hanks". */
        String group(Cat c, String v, Tw tw) {
            String l = lab(v);
            if (c.key().equals("genre") && GENRE_PLURAL.containsKey(l)) return GENRE_PLURAL.get(l);
            if (c.key().equals("gender") && GENDER_GROUP.containsKey(l)) return GENDER_GROUP.get(l);
            return String.format(c.group(), tw.pl(), l);
        }

        /** Sorted labels joined by "; " (case-insensitive, then natural order). */
        String joinSorted(List<String> labels) {
            List<String> l = new ArrayList<>(labels);
            l.sort(ORD);
            return String.join("; ", l);
        }

        /** value ids ordered by count descending, then label (case-insensitive, then natural). */
        List<String> byCountDesc(TreeMap<String, Integer> counts) {
            List<String> vs = new ArrayList<>(counts.keySet());
            vs.sort(Comparator.comparing((String v) -> -counts.get(v)).thenComparing(v -> lab(v), ORD));
            return vs;
        }

        boolean allClean(Iterable<String> ids) {
            for (String id : ids) if (!kg.clean(id)) return false;
            return true;
        }

        /** Unordered value pairs (most common values first, at most the top 8), each returned in random order. */
        List<String[]> pairs(TreeMap<String, Integer> counts, Random rng) {
            List<String> vs = new ArrayList<>();
            for (String v : byCountDesc(counts)) if (kg.clean(v)) vs.add(v);
            if (vs.size() > 8) vs = vs.subList(0, 8);
            List<String[]> out = new ArrayList<>();
            for (int i = 0; i < vs.size(); i++)
                for (int j = i + 1; j < vs.size(); j++)
                    out.add(rng.nextBoolean() ? new String[]{vs.get(i), vs.get(j)} : new String[]{vs.get(j), vs.get(i)});
            return out;
        }

        /** Property families used to spread questions: the release year, derived counts, people-valued properties
         *  (actor, writer, director) and every other categorical property on its own. */
        static String family(String key) {
            return switch (key) {
                case "year" -> "year";
                case "actors", "writers", "genres", "tags", "professions", "nationalities", "languages", "countries" -> "count";
                case "actor", "writer", "director" -> "person";
                default -> key;
            };
        }

        Cand cand(SetDef s, String text, String answer, int priority, String... strata) {
            return new Cand(s, text, answer, List.of(strata), priority);
        }

        // ---------------- 1. aggregation (count)

        List<Cand> aggregation(Random rng) {
            List<Cand> out = new ArrayList<>();
            for (SetDef s : sets) {
                Tw tw = tw(s.rel.kind(), rng);
                for (Cat c : cats("aggregation", s)) {
                    TreeMap<String, Integer> cnt = counts(s, c);
                    // the whole set: every member, or for years every member with a (single) year
                    int whole = c.year() ? withValue(s, c) : s.size();
                    List<Cand> local = new ArrayList<>();
                    for (Map.Entry<String, Integer> e : cnt.entrySet()) {
                        int k = e.getValue();
                        if (k == 0 || k == whole || !kg.clean(e.getKey())) continue; // the filter must matter
                        // prefer counts >= 2: a count of 1 is closer to a single look-up than to a set question
                        local.add(cand(s, aggText(s, tw, pred(c, e.getKey(), rng), rng), String.valueOf(k), k == 1 ? 1 : 0,
                                s.bucket(), family(c.key()), s.rel.rel()));
                    }
                    out.addAll(keep(local, 3, rng));
                }
                for (Num q : nums("aggregation", s)) {
                    TreeMap<String, Integer> vals = numValues(s, q);
                    TreeSet<Integer> distinct = new TreeSet<>(vals.values());
                    List<Cand> local = new ArrayList<>();
                    for (int thr : distinct) {
                        for (boolean above : new boolean[]{true, false}) {
                            if (!q.year() && !above && thr < 2) continue; // "fewer than 1" only means none: skip
                            int k = 0;
                            for (int x : vals.values()) if (above ? x > thr : x < thr) k++;
                            // members without a value (no release year) are not counted and not part of the whole
                            if (k == 0 || k == vals.size()) continue;
                            String pred;
                            if (q.year()) pred = (above ? "were released after " : "were released before ") + thr;
                            else pred = (above ? "have more than " : "have fewer than ") + thr + " " + (thr == 1 ? q.unit() : q.units());
                            local.add(cand(s, aggText(s, tw, pred, rng), String.valueOf(k), k == 1 ? 1 : 0, s.bucket(), family(q.key()), s.rel.rel()));
                        }
                    }
                    out.addAll(keep(local, 3, rng));
                }
            }
            return out;
        }

        String aggText(SetDef s, Tw tw, String pred, Random rng) {
            return switch (rng.nextInt(3)) {
                case 0 -> "How many " + setPl(s, tw) + " " + pred + "?";
                case 1 -> "Among " + setPl(s, tw) + ", how many " + pred + "?";
                default -> "What is the number of " + setPl(s, tw) + " that " + pred + "?";
            };
        }

        // ---------------- 2. distribution

        List<Cand> distribution(Random rng) {
            List<Cand> out = new ArrayList<>();
            for (SetDef s : sets) {
                Tw tw = tw(s.rel.kind(), rng);
                for (Cat c : cats("distribution", s)) {
                    TreeMap<String, Integer> cnt = counts(s, c);
                    if (cnt.size() < 2 || cnt.size() > 12) continue;   // rule: 2..12 groups
                    if (!allClean(cnt.keySet())) continue;             // every group must be nameable
                    List<String> parts = new ArrayList<>();
                    for (String v : byCountDesc(cnt)) parts.add(lab(v) + ": " + cnt.get(v));
                    String text = switch (rng.nextInt(3)) {
                        case 0 -> "What is the distribution of " + c.nouns() + " among " + setPl(s, tw) + "?";
                        case 1 -> "How are the " + c.nouns() + " of " + setPl(s, tw) + " distributed?";
                        default -> "How many " + setPl(s, tw) + " are there per " + c.noun() + "?";
                    };
                    out.add(cand(s, text, String.join("; ", parts), 0, s.bucket(), family(c.key()), s.rel.rel()));
                }
            }
            return out;
        }

        // ---------------- 3. superlative (numeric extreme or most common value)

        List<Cand> superlative(Random rng) {
            List<Cand> out = new ArrayList<>();
            for (SetDef s : sets) {
                Tw tw = tw(s.rel.kind(), rng);
                for (Num q : nums("superlative", s)) {
                    TreeMap<String, Integer> vals = numValues(s, q);
                    if (vals.size() < 2) continue;
                    for (boolean max : new boolean[]{true, false}) {
                        int best = max ? Collections.max(vals.values()) : Collections.min(vals.values());
                        List<String> top = new ArrayList<>();
                        for (Map.Entry<String, Integer> e : vals.entrySet()) if (e.getValue() == best) top.add(e.getKey());
                        // at most 2 tied members, never all members with a value, all nameable
                        if (top.size() > 2 || top.size() == vals.size() || !allClean(top)) continue;
                        String phrase = q.year()
                                ? (max ? pickOne(rng, "was released most recently", "is the most recent")
                                       : pickOne(rng, "was released earliest", "is the oldest"))
                                : (max ? "has the most " : "has the fewest ") + q.units();
                        String text = rng.nextBoolean()
                                ? "Which " + setSg(s, tw) + " " + phrase + "?"
                                : "Among " + setPl(s, tw) + ", which one " + phrase + "?";
                        List<String> labels = new ArrayList<>();
                        for (String m : top) labels.add(lab(m));
                        out.add(cand(s, text, joinSorted(labels), top.size() > 1 ? 1 : 0, s.bucket(), family(q.key()), s.rel.rel()));
                    }
                }
                for (Cat c : cats("superlative", s)) {
                    TreeMap<String, Integer> cnt = counts(s, c);
                    if (cnt.size() < 2) continue; // a mode needs at least two values to compare
                    int best = Collections.max(cnt.values());
                    List<String> top = new ArrayList<>();
                    for (Map.Entry<String, Integer> e : cnt.entrySet()) if (e.getValue() == best) top.add(e.getKey());
                    if (top.size() > 2 || !allClean(top)) continue; // at most 2 tied values
                    String text = switch (rng.nextInt(3)) {
                        case 0 -> "Which " + c.noun() + " is most common among " + setPl(s, tw) + "?";
                        case 1 -> "What is the most frequent " + c.noun() + " of " + setPl(s, tw) + "?";
                        default -> "Among " + setPl(s, tw) + ", which " + c.noun() + " occurs most often?";
                    };
                    List<String> labels = new ArrayList<>();
                    for (String v : top) labels.add(lab(v));
                    out.add(cand(s, text, joinSorted(labels), top.size() > 1 ? 1 : 0, s.bucket(), "mode", s.rel.rel()));
                }
            }
            return out;
        }

        // ---------------- 4. intercomparison (which of two values is more common)

        List<Cand> intercomparison(Random rng) {
            List<Cand> out = new ArrayList<>();
            for (SetDef s : sets) {
                Tw tw = tw(s.rel.kind(), rng);
                for (Cat c : cats("intercomparison", s)) {
                    TreeMap<String, Integer> cnt = counts(s, c);
                    List<Cand> local = new ArrayList<>();
                    for (String[] p : pairs(cnt, rng)) {          // p is already in random question order
                        int ca = cnt.get(p[0]), cb = cnt.get(p[1]);
                        if (ca == cb) continue;                     // rule: no equal counts (both >= 1 by construction)
                        String answer = lab(ca > cb ? p[0] : p[1]);
                        String text = switch (rng.nextInt(3)) {
                            case 0 -> "Among " + setPl(s, tw) + ", are there more " + group(c, p[0], tw) + " or " + group(c, p[1], tw) + "?";
                            case 1 -> "Which " + c.noun() + " is more common among " + setPl(s, tw) + ": " + lab(p[0]) + " or " + lab(p[1]) + "?";
                            default -> "Are there more " + setPl(s, tw) + " that " + pred(c, p[0], rng) + " or that " + pred(c, p[1], rng) + "?";
                        };
                        local.add(cand(s, text, answer, 0, s.bucket(), family(c.key()), s.rel.rel()));
                    }
                    out.addAll(keep(local, 2, rng));
                }
            }
            return out;
        }

        // ---------------- 5. distribution_compliance (Jarque–Bera normality test at 5 %)

        List<Cand> distributionCompliance(Random rng) {
            List<Cand> out = new ArrayList<>();
            for (SetDef s : sets) {
                Tw tw = tw(s.rel.kind(), rng);
                for (Num q : nums("distribution_compliance", s)) {
                    List<Integer> xs = new ArrayList<>(numValues(s, q).values());
                    if (xs.size() < 20) continue;                                       // rule: n >= 20
                    double jb = jarqueBera(xs);
                    if (Double.isNaN(jb)) continue;                                     // rule: m2 = 0
                    if (jb >= 0.9 * JB_CRIT && jb <= 1.1 * JB_CRIT) continue;           // rule: too close to call
                    String answer = jb < JB_CRIT ? "yes" : "no";
                    String text = switch (rng.nextInt(3)) {
                        case 0 -> "Do the " + q.nouns() + " of " + setPl(s, tw) + " follow a normal distribution?";
                        case 1 -> "Are the " + q.nouns() + " of " + setPl(s, tw) + " normally distributed?";
                        default -> "Is the " + q.noun() + " of " + setPl(s, tw) + " normally distributed?";
                    };
                    out.add(cand(s, text, answer, 0, answer, s.bucket(), family(q.key()), s.rel.rel()));
                }
            }
            return out;
        }

        // ---------------- 6. correlation (|Pearson r| >= 0.3)

        List<Cand> correlation(Random rng) {
            List<Cand> out = new ArrayList<>();
            for (SetDef s : sets) {
                Tw tw = tw(s.rel.kind(), rng);
                List<Num> qs = nums("correlation", s);
                for (int i = 0; i < qs.size(); i++)
                    for (int j = i + 1; j < qs.size(); j++) {
                        Num a = qs.get(i), b = qs.get(j);
                        if (rng.nextBoolean()) { Num t = a; a = b; b = t; } // random order in the question
                        List<Integer> xs = new ArrayList<>(), ys = new ArrayList<>();
                        for (String m : s.members) {                        // members having both values
                            Integer x = num(a, m), y = num(b, m);
                            if (x != null && y != null) { xs.add(x); ys.add(y); }
                        }
                        if (xs.size() < 10) continue;                       // rule: n >= 10
                        double r = pearson(xs, ys);
                        if (Double.isNaN(r)) continue;                      // rule: undefined r
                        double ar = Math.abs(r);
                        if (ar >= 0.25 && ar <= 0.35) continue;             // rule: too close to 0.3
                        String answer = ar >= 0.3 ? "yes" : "no";
                        String text = switch (rng.nextInt(3)) {
                            case 0 -> "Is there a linear relationship between the " + a.noun() + " and the " + b.noun() + " of " + setPl(s, tw) + "?";
                            case 1 -> "Among " + setPl(s, tw) + ", are the " + a.noun() + " and the " + b.noun() + " linearly correlated?";
                            default -> "For " + setPl(s, tw) + ", does the " + a.noun() + " correlate linearly with the " + b.noun() + "?";
                        };
                        out.add(cand(s, text, answer, 0, answer, s.bucket(), a.year() || b.year() ? "year" : "count", s.rel.rel()));
                    }
            }
            return out;
        }

        // ---------------- 7. variance (which group's values vary more)

        List<Cand> variance(Random rng) {
            List<Cand> out = new ArrayList<>();
            for (SetDef s : sets) {
                Tw tw = tw(s.rel.kind(), rng);
                for (Cat c : cats("variance", s)) {
                    for (Num q : nums("variance", s)) {
                        // value -> numeric values of its members (members with a value only)
                        TreeMap<String, List<Integer>> groups = new TreeMap<>();
                        for (String m : s.members) {
                            Integer x = num(q, m);
                            if (x == null) continue;
                            for (String v : values(s, c, m)) groups.computeIfAbsent(v, k -> new ArrayList<>()).add(x);
                        }
                        TreeMap<String, Integer> sizes = new TreeMap<>();
                        for (Map.Entry<String, List<Integer>> e : groups.entrySet())
                            if (e.getValue().size() >= 3) sizes.put(e.getKey(), e.getValue().size()); // rule: >= 3 each
                        List<Cand> local = new ArrayList<>();
                        for (String[] p : pairs(sizes, rng)) {
                            double va = sampleVariance(groups.get(p[0])), vb = sampleVariance(groups.get(p[1]));
                            double hi = Math.max(va, vb), lo = Math.min(va, vb);
                            if (hi <= 1.1 * lo) continue;                  // rule: larger within 10 % of smaller
                            String answer = lab(va > vb ? p[0] : p[1]);
                            String text = rng.nextBoolean()
                                    ? "Among " + setPl(s, tw) + ", do the " + q.nouns() + " of " + group(c, p[0], tw) + " or of " + group(c, p[1], tw) + " vary more?"
                                    : "Among " + setPl(s, tw) + ", which " + c.noun() + " shows the larger variance in " + q.noun() + ": " + lab(p[0]) + " or " + lab(p[1]) + "?";
                            local.add(cand(s, text, answer, 0, s.bucket(), family(q.key()), s.rel.rel()));
                        }
                        out.addAll(keep(local, 2, rng));
                    }
                }
            }
            return out;
        }

        // ---------------- 8. relationship (members that also have a second value)

        List<Cand> relationship(Random rng) {
            List<Cand> out = new ArrayList<>();
            for (SetDef s : sets) {
                Tw tw = tw(s.rel.kind(), rng);
                for (Cat c : cats("relationship", s)) {
                    TreeMap<String, List<String>> byValue = new TreeMap<>();
                    for (String m : s.members) for (String v : values(s, c, m)) byValue.computeIfAbsent(v, k -> new ArrayList<>()).add(m);
                    List<Cand> local = new ArrayList<>();
                    for (Map.Entry<String, List<String>> e : byValue.entrySet()) {
                        List<String> ms = e.getValue();
                        // rule: 1..5 matching members, fewer than the whole set, Y is not the anchor, all nameable
                        if (ms.size() > 5 || ms.size() == s.size() || e.getKey().equals(s.anchor)) continue;
                        if (!kg.clean(e.getKey()) || !allClean(ms)) continue;
                        String pred = pred(c, e.getKey(), rng);
                        String text = switch (rng.nextInt(3)) {
                            case 0 -> "Which " + setPl(s, tw) + " " + pred + "?";
                            case 1 -> "Among " + setPl(s, tw) + ", which ones " + pred + "?";
                            default -> "What are the " + setPl(s, tw) + " that " + pred + "?";
                        };
                        List<String> labels = new ArrayList<>();
                        for (String m : ms) labels.add(lab(m));
                        // prefer 2..5 matching members over a single one
                        local.add(cand(s, text, joinSorted(labels), ms.size() == 1 ? 1 : 0, s.bucket(), family(c.key()), s.rel.rel()));
                    }
                    out.addAll(keep(local, 2, rng));
                }
            }
            return out;
        }

        // ---------------- 9. hypothetical (would A outnumber B after k more A)

        List<Cand> hypothetical(Random rng) {
            List<Cand> out = new ArrayList<>();
            for (SetDef s : sets) {
                Tw tw = tw(s.rel.kind(), rng);
                for (Cat c : cats("hypothetical", s)) {
                    TreeMap<String, Integer> cnt = counts(s, c);
                    List<Cand> local = new ArrayList<>();
                    for (String[] p : pairs(cnt, rng)) {
                        String a = p[0], b = p[1];
                        if (cnt.get(a) > cnt.get(b)) { String t = a; a = b; b = t; }
                        int ca = cnt.get(a), cb = cnt.get(b);
                        // rule: A is strictly less common than B, by at most 5, so the added k can matter
                        if (ca >= cb || cb - ca > 5) continue;
                        int k = 1 + rng.nextInt(5);
                        String answer = ca + k > cb ? "yes" : "no";
                        String ga = group(c, a, tw), gb = group(c, b, tw);
                        int form = rng.nextInt(k >= 2 ? 3 : 2); // "k more X" only reads well for k >= 2
                        String text = switch (form) {
                            case 0 -> "Among " + setPl(s, tw) + ", if the number of " + ga + " increased by " + k + ", would there be more " + ga + " than " + gb + "?";
                            case 1 -> "If the count of " + ga + " among " + setPl(s, tw) + " were " + k + " higher, would it exceed the count of " + gb + "?";
                            default -> "Among " + setPl(s, tw) + ", if there were " + k + " more " + ga + ", would there be more " + ga + " than " + gb + "?";
                        };
                        local.add(cand(s, text, answer, 0, answer, s.bucket(), family(c.key()), s.rel.rel()));
                    }
                    out.addAll(keep(local, 2, rng));
                }
            }
            return out;
        }
    }
}
