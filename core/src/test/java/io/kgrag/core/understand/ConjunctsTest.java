package io.kgrag.core.understand;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kgrag.core.qa.embedded.Gazetteer;
import io.kgrag.core.qa.embedded.GazetteerTest;
import io.kgrag.core.understand.Conjuncts.Conjunct;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ConjunctsTest {
  private static final Gazetteer LABELS = GazetteerTest.of("2000 Summer Olympics", "2012 Summer Olympics", "1984 Summer Olympics", "Television Producer",
      "Film Producer", "The Producers", "Stage Producer");

  /** The conjuncts before the name of {@code words} words that ends the question (before its question mark). */
  private static List<Conjunct> before(String question, int words) {
    List<String> norms = new ArrayList<>();
    List<int[]> spans = new ArrayList<>();
    Matcher m = Pattern.compile("[\\p{L}\\p{N}]+").matcher(question);
    while (m.find()) {
      norms.add(m.group().toLowerCase(java.util.Locale.ROOT));
      spans.add(new int[] {m.start(), m.end()});
    }
    boolean[] commas = Conjuncts.commasAfter(question, spans.stream().mapToInt(s -> s[0]).toArray(), spans.stream().mapToInt(s -> s[1]).toArray());
    return Conjuncts.before(norms, commas, norms.size() - words, norms.size(), LABELS);
  }

  @Test
  void conjunctsSeparatedByCommasAndAConjunctionReadWithTheNamesTail() {
    assertEquals(List.of(new Conjunct(6, 7, "2012 Summer Olympics"), new Conjunct(5, 6, "2000 Summer Olympics")),
        before("Which sport was at the 2000, 2012, and 1984 Summer Olympics", 3));
    assertEquals(List.of(new Conjunct(2, 3, "Television Producer"), new Conjunct(1, 2, "Stage Producer")),
        before("the stage, television and film producer", 2));
  }

  @Test
  void aWordThatNeitherAConjunctionNorACommaSeparatesEndsTheCoordination() {
    // "the producer" names a label, but nothing separates "the" from "television"
    assertEquals(List.of(new Conjunct(3, 4, "Television Producer")), before("Who is the television and film producer", 2));
    // a comma alone, with no conjunction, is not a coordination ("Leeds, film producer")
    assertEquals(List.of(), before("Who is the stage, film producer", 2));
    assertEquals(List.of(), before("Who is the 1984 Summer Olympics", 3), "no conjunction before the name");
  }
}
