package io.kgrag.core.text;

import io.kgrag.core.graph.Labels;
import io.kgrag.core.text.extract.ExtractedEntity;
import io.kgrag.core.text.extract.ExtractedTriple;
import io.kgrag.core.text.extract.Extraction;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * How extracted names and phrases become graph keys, and how mentions of one entity across chunks merge
 * into one node.
 *
 * <ul>
 *   <li>An entity's key is {@code text:} + its {@link Labels#normalize normalised} name ("Grégoire Colin" and
 *       "gregoire-colin" are one node), so {@link io.kgrag.core.graph.StableIds#entityId} gives its id and
 *       text keys never meet triple keys (MIDs, IRIs).
 *   <li>A relation's name is its phrase in lower case with whitespace collapsed ("Was  Born in" → "was born
 *       in").
 *   <li>A merged entity's label is the name written most often (ties: the lexically first), its type the
 *       most frequent non-empty type, its description the distinct descriptions, most frequent first.
 * </ul>
 */
public final class TextGraph {
  /** Prefix of every text entity key. */
  public static final String KEY_PREFIX = "text:";

  /** Longest merged description kept in {@code entities.description} / {@code relations.description}. */
  public static final int MAX_DESCRIPTION = 2000;

  private static final Pattern SPACE = Pattern.compile("\\s+");

  private TextGraph() {}

  /** One entity mention in a chunk, with its key. */
  public record Mention(String key, String name, String type, String description) {}

  /** One relation read in a chunk, with its endpoints' keys and its relation name. */
  public record Edge(String srcKey, String relation, String dstKey, String description, double confidence) {}

  /** What a chunk contributes to the graph, and what of its extraction could not be used. */
  public record ChunkGraph(List<Mention> mentions, List<Edge> edges, List<String> rejected) {}

  /** An entity merged from all its mentions. */
  public record MergedEntity(String key, String label, String type, String description) {}

  /** The key of the entity named {@code name}, or null when nothing of the name is left after normalisation. */
  public static String entityKey(String name) {
    String n = Labels.normalize(name);
    return n.isEmpty() ? null : KEY_PREFIX + n;
  }

  /** The relation name of {@code phrase}, or null when it is blank. */
  public static String relationName(String phrase) {
    if (phrase == null) {
      return null;
    }
    String r = SPACE.matcher(phrase.strip()).replaceAll(" ").toLowerCase(Locale.ROOT);
    return r.isEmpty() ? null : r;
  }

  /**
   * The mentions and edges of one chunk's extraction. Entities with the same key are one mention (the first
   * name as written, the first non-empty type, their distinct descriptions); every triple argument is a
   * mention too. Triples with an argument or relation that normalises to nothing, or whose two ends are the
   * same entity, are rejected (with the extractor's own rejections). The same edge twice keeps its highest
   * confidence and first non-empty description.
   */
  public static ChunkGraph of(Extraction x) {
    List<String> rejected = new ArrayList<>(x.rejected());
    Map<String, String[]> mentions = new LinkedHashMap<>(); // key -> name, type, description
    for (ExtractedEntity e : x.entities()) {
      String key = entityKey(e.name());
      if (key == null) {
        rejected.add("entity without a name: '" + e.name() + "'");
        continue;
      }
      String[] m = mentions.get(key);
      if (m == null) {
        mentions.put(key, new String[] {e.name().strip(), e.type().strip(), e.description().strip()});
      } else {
        if (m[1].isEmpty()) {
          m[1] = e.type().strip();
        }
        String d = e.description().strip();
        if (!d.isEmpty() && !m[2].contains(d)) {
          m[2] = m[2].isEmpty() ? d : m[2] + " " + d;
        }
      }
    }
    Map<String, Edge> edges = new LinkedHashMap<>();
    for (ExtractedTriple t : x.triples()) {
      String s = entityKey(t.subject());
      String o = entityKey(t.object());
      String r = relationName(t.relation());
      String what = "(" + t.subject() + "; " + t.relation() + "; " + t.object() + ")";
      if (s == null || o == null || r == null) {
        rejected.add("triple with an empty " + (s == null ? "subject" : o == null ? "object" : "relation") + ": " + what);
        continue;
      }
      if (s.equals(o)) {
        rejected.add("triple from an entity to itself: " + what);
        continue;
      }
      mentions.putIfAbsent(s, new String[] {t.subject().strip(), "", ""});
      mentions.putIfAbsent(o, new String[] {t.object().strip(), "", ""});
      double c = Double.isNaN(t.confidence()) ? 1.0 : Math.max(0.0, Math.min(1.0, t.confidence()));
      String d = t.description().strip();
      String id = s + "\u0000" + r + "\u0000" + o;
      Edge prev = edges.get(id);
      if (prev == null) {
        edges.put(id, new Edge(s, r, o, d, c));
      } else {
        edges.put(id, new Edge(s, r, o, prev.description().isEmpty() ? d : prev.description(), Math.max(c, prev.confidence())));
      }
    }
    List<Mention> ms = new ArrayList<>();
    mentions.forEach((k, m) -> ms.add(new Mention(k, m[0], m[1], m[2])));
    return new ChunkGraph(ms, new ArrayList<>(edges.values()), rejected);
  }

  /** Merges every mention of entity {@code key} (from any chunks, in any order: the result is the same). */
  public static MergedEntity merge(String key, Collection<Mention> mentions) {
    Map<String, Integer> names = new TreeMap<>();
    Map<String, Integer> types = new TreeMap<>();
    List<String> descriptions = new ArrayList<>();
    for (Mention m : mentions) {
      names.merge(m.name(), 1, Integer::sum);
      if (!m.type().isEmpty()) {
        types.merge(m.type(), 1, Integer::sum);
      }
      descriptions.add(m.description());
    }
    String label = mostFrequent(names);
    return new MergedEntity(key, label == null ? key.substring(KEY_PREFIX.length()) : label, mostFrequent(types), mergeDescriptions(descriptions));
  }

  /**
   * The distinct non-empty descriptions, most frequent first (ties in lexical order), joined by a space up
   * to {@link #MAX_DESCRIPTION} characters (whole descriptions only); null when there is none.
   */
  public static String mergeDescriptions(Collection<String> descriptions) {
    Map<String, Integer> counts = new TreeMap<>();
    for (String d : descriptions) {
      if (d != null && !d.isBlank()) {
        counts.merge(d.strip(), 1, Integer::sum);
      }
    }
    if (counts.isEmpty()) {
      return null;
    }
    List<Map.Entry<String, Integer>> ranked = new ArrayList<>(counts.entrySet());
    ranked.sort((a, b) -> b.getValue() != a.getValue().intValue() ? Integer.compare(b.getValue(), a.getValue()) : a.getKey().compareTo(b.getKey()));
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, Integer> e : ranked) {
      int add = e.getKey().length() + (out.length() == 0 ? 0 : 1);
      if (out.length() + add > MAX_DESCRIPTION) {
        if (out.length() == 0) {
          out.append(e.getKey(), 0, MAX_DESCRIPTION);
        }
        break;
      }
      if (out.length() > 0) {
        out.append(' ');
      }
      out.append(e.getKey());
    }
    return out.toString();
  }

  /** The key with the highest count; ties go to the lexically first (the map is sorted). */
  private static String mostFrequent(Map<String, Integer> counts) {
    String best = null;
    int bestCount = 0;
    for (Map.Entry<String, Integer> e : counts.entrySet()) {
      if (e.getValue() > bestCount) {
        best = e.getKey();
        bestCount = e.getValue();
      }
    }
    return best;
  }
}
