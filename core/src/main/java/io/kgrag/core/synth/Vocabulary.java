package io.kgrag.core.synth;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/** The words synthetic graphs are named with: entity types, relation properties and pronounceable names. */
final class Vocabulary {
  /** Entity type words, biggest type first (one token each, singular). */
  static final List<String> TYPES =
      List.of(
          "person", "film", "book", "city", "company", "disease", "drug", "album", "song", "team", "school", "river",
          "mountain", "country", "organization", "award", "event", "language", "species", "building", "ship", "game",
          "painting", "newspaper", "university", "hospital", "museum", "airport", "planet", "element", "protein", "gene",
          "symptom", "restaurant", "festival", "journal", "vehicle", "weapon", "mineral", "instrument");

  private static final String[] VERBS = {
    "directed", "written", "founded", "located", "treated", "caused", "produced", "owned", "played", "studied", "born",
    "buried", "educated", "employed", "associated", "influenced", "named", "known", "awarded", "nominated", "released",
    "published", "based", "used", "linked", "related", "connected", "managed", "sponsored", "hosted", "built", "designed",
    "discovered", "invented", "funded", "governed", "coached", "signed", "featured", "recorded", "performed", "exported",
    "imported", "ranked", "listed"
  };
  private static final String[] PREPOSITIONS = {"by", "in", "with", "at", "for", "from", "on", "to", "near", "after"};

  private static final String[] SYLLABLES = {
    "ka", "lo", "ri", "ven", "mar", "tel", "dor", "sa", "qui", "bel", "no", "ra", "thi", "gan", "mo", "zer", "ul", "fa",
    "pen", "cor", "li", "ast", "ber", "vi", "shan", "to", "mel", "ki", "dra", "ne", "os", "pra", "lu", "gor", "ta", "wen",
    "e", "ha", "sil", "tam", "ro", "fen", "ja", "kor", "mi", "an", "bra", "di", "el", "har", "is", "kel", "on", "pi", "sor",
    "ver", "ya", "zan", "cal", "dun"
  };

  private Vocabulary() {}

  static int maxProperties() {
    return VERBS.length * PREPOSITIONS.length;
  }

  /** {@code n} distinct properties ({@code directed_by}), in an order drawn from {@code rnd}. */
  static String[] properties(int n, SplittableRandom rnd) {
    List<String> all = new ArrayList<>();
    for (String v : VERBS) {
      for (String p : PREPOSITIONS) {
        all.add(v + "_" + p);
      }
    }
    for (int i = all.size() - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      String x = all.get(i);
      all.set(i, all.get(j));
      all.set(j, x);
    }
    return all.subList(0, n).toArray(new String[0]);
  }

  /** A capitalised word of two or three syllables ("Kalomar"). */
  static String word(SplittableRandom rnd) {
    int syllables = rnd.nextInt(10) < 6 ? 2 : 3;
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < syllables; i++) {
      b.append(SYLLABLES[rnd.nextInt(SYLLABLES.length)]);
    }
    return b.substring(0, 1).toUpperCase(Locale.ROOT) + b.substring(1);
  }
}
