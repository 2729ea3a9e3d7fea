package io.kgrag.extract.openie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.text.extract.ExtractedEntity;
import io.kgrag.core.text.extract.ExtractedTriple;
import io.kgrag.extract.openie.TripleFilter.Candidate;
import io.kgrag.extract.openie.TripleFilter.Mention;
import io.kgrag.extract.openie.TripleFilter.Sentence;
import io.kgrag.extract.openie.TripleFilter.Token;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The triple filter on hand-made annotations (no CoreNLP). */
class TripleFilterTest {
  /** "The Journal of Mathematical Physics is published by the American Institute of Physics ." */
  private static final List<Token> JOURNAL = tokens(
      "The/DT Journal/NNP of/IN Mathematical/NNP Physics/NNP is/VBZ published/VBN by/IN the/DT American/NNP"
          + " Institute/NNP of/IN Physics/NNP ./.");
  private static final Mention JMP = new Mention("Journal of Mathematical Physics", "ORGANIZATION", 2, 6);
  private static final Mention AIP = new Mention("American Institute of Physics", "ORGANIZATION", 10, 14);
  private static final String JOURNAL_TEXT =
      "The Journal of Mathematical Physics is published by the American Institute of Physics.";

  private final TripleFilter filter = new TripleFilter(0.0, 10, true);

  @Test
  void argumentInsideAMentionBecomesTheMentionAndTheMostSpecificVariantWins() {
    Sentence s = new Sentence(1, JOURNAL_TEXT, JOURNAL, List.of(JMP, AIP), List.of(
        new Candidate(span(JOURNAL, 2, 2), "is published by", span(JOURNAL, 9, 13), 1.0),
        new Candidate(span(JOURNAL, 2, 2), "is published by", span(JOURNAL, 10, 11), 1.0),
        new Candidate(span(JOURNAL, 1, 5), "is published by", span(JOURNAL, 10, 13), 1.0)));
    TripleFilter.Result r = filter.apply(List.of(s));
    assertEquals(List.of(new ExtractedTriple(
        "Journal of Mathematical Physics", "is published by", "American Institute of Physics", JOURNAL_TEXT, 1.0)),
        r.triples());
    assertEquals(List.of(
        new ExtractedEntity("Journal of Mathematical Physics", "ORGANIZATION", JOURNAL_TEXT),
        new ExtractedEntity("American Institute of Physics", "ORGANIZATION", JOURNAL_TEXT)), r.entities());
    assertEquals(List.of(), r.rejected());
  }

  @Test
  void commonNounAndPronounArgumentsAreRejectedWithTheirReason() {
    List<Token> t = tokens("He/PRP founded/VBD a/DT company/NN in/IN Paris/NNP ./.");
    Sentence s = new Sentence(2, "He founded a company in Paris.", t, List.of(
        new Mention("He", "PERSON", 1, 2), new Mention("Paris", "LOCATION", 6, 7)), List.of(
        new Candidate(span(t, 1, 1), "founded", span(t, 3, 4), 1.0),
        new Candidate(span(t, 1, 1), "founded company in", span(t, 6, 6), 1.0)));
    TripleFilter.Result r = filter.apply(List.of(s));
    assertEquals(List.of(), r.triples());
    assertEquals(List.of(new ExtractedEntity("Paris", "LOCATION", "He founded a company in Paris.")), r.entities(),
        "a pronoun mention is no entity");
    assertEquals(List.of(
        "sentence 2: (He; founded; a company): subject 'He' is neither an entity mention nor a proper noun",
        "sentence 2: (He; founded company in; Paris): subject 'He' is neither an entity mention nor a proper noun"),
        r.rejected());
  }

  @Test
  void theTitleStandsForPronounsAndTheTitleNounOnlyWhenItOccursInTheText() {
    List<Token> t = tokens("The/DT journal/NN moved/VBD to/TO Boston/NNP ./.");
    List<Token> u = tokens("It/PRP was/VBD founded/VBN in/IN 1960/CD ./.");
    List<Sentence> ss = List.of(
        new Sentence(1, "The journal moved to Boston.", t, List.of(new Mention("Boston", "LOCATION", 5, 6)),
            List.of(new Candidate(span(t, 2, 2), "moved to", span(t, 5, 5), 0.9))),
        new Sentence(2, "It was founded in 1960.", u, List.of(new Mention("1960", "DATE", 5, 6)),
            List.of(new Candidate(span(u, 1, 1), "was founded in", span(u, 5, 5), 1.0))));
    String text = "Acta Physica (journal) ... The journal moved to Boston. It was founded in 1960.";
    TripleFilter.Result r = filter.apply("Acta Physica (journal)", text, ss);
    assertEquals(List.of("(Acta Physica; moved to; Boston)", "(Acta Physica; was founded in; 1960)"), show(r.triples()));
    assertTrue(r.entities().contains(new ExtractedEntity("Acta Physica", "", "The journal moved to Boston.")));

    assertEquals(List.of(), filter.apply("Acta Physica", "The journal moved to Boston. It was founded in 1960.", ss).triples(),
        "a title absent from the text is no antecedent");
    assertEquals(List.of(), new TripleFilter(0.0, 10, false).apply("Acta Physica (journal)", text, ss).triples(),
        "off when the setting is off");
  }

  @Test
  void determinersAreTrimmedProperNounsAnchorAndDuplicatesCollapseToTheHighestConfidence() {
    List<Token> a = tokens("the/DT Rolling/NNP Stones/NNPS played/VBD in/IN Hyde/NNP Park/NNP");
    Sentence s1 = new Sentence(1, "s1", a, List.of(), List.of(new Candidate(span(a, 1, 3), "played in", span(a, 6, 7), 0.6)));
    Sentence s2 = new Sentence(2, "s2", a, List.of(), List.of(new Candidate(span(a, 1, 3), "Played in", span(a, 6, 7), 0.8)));
    TripleFilter.Result r = filter.apply(List.of(s1, s2));
    assertEquals(List.of(new ExtractedTriple("Rolling Stones", "played in", "Hyde Park", "s1", 0.8)), r.triples());
    assertEquals(List.of(new ExtractedEntity("Rolling Stones", "", "s1"), new ExtractedEntity("Hyde Park", "", "s1")),
        r.entities());
  }

  @Test
  void distinctRelationsOfOneClauseBothStayAndOrdinalsAnchorNothing() {
    List<Token> t = tokens("Obama/NNP was/VBD born/VBN and/CC raised/VBN in/IN Honolulu/NNP 44th/JJ");
    Mention obama = new Mention("Obama", "PERSON", 1, 2);
    Mention honolulu = new Mention("Honolulu", "LOCATION", 7, 8);
    Mention ordinal = new Mention("44th", "ORDINAL", 8, 9);
    Sentence s = new Sentence(1, "s", t, List.of(obama, honolulu, ordinal), List.of(
        new Candidate(span(t, 1, 1), "was born in", span(t, 7, 7), 1.0),
        new Candidate(span(t, 1, 1), "was raised in", span(t, 7, 7), 1.0),
        new Candidate(span(t, 1, 1), "was", span(t, 8, 8), 1.0)));
    TripleFilter.Result r = filter.apply(List.of(s));
    assertEquals(List.of("(Obama; was born in; Honolulu)", "(Obama; was raised in; Honolulu)"), show(r.triples()));
    assertEquals(List.of("Obama", "Honolulu"), r.entities().stream().map(ExtractedEntity::name).toList());
    assertEquals(1, r.rejected().size());
  }

  @Test
  void relationVariantsOfOneClauseCollapseToTheLongestRelationAndTheTitleTakesItsMentionsName() {
    List<Token> t = tokens("It/PRP was/VBD first/RB published/VBN in/IN 1911/CD ./.");
    Sentence s = new Sentence(3, "It was first published in 1911.", t,
        List.of(new Mention("1911", "DATE", 6, 7)), List.of(
        new Candidate(span(t, 1, 1), "was published in", span(t, 6, 6), 1.0),
        new Candidate(span(t, 1, 1), "was first published in", span(t, 6, 6), 1.0)));
    List<Token> u = tokens("The/DT American/NNP Economic/NNP Review/NNP is/VBZ a/DT journal/NN ./.");
    Sentence first = new Sentence(1, "The American Economic Review is a journal.", u,
        List.of(new Mention("American Economic Review", "ORGANIZATION", 2, 5)), List.of());
    TripleFilter.Result r = filter.apply("The American Economic Review",
        "The American Economic Review is a journal. It was first published in 1911.", List.of(first, s));
    assertEquals(List.of("(American Economic Review; was first published in; 1911)"), show(r.triples()));
    assertEquals(List.of("American Economic Review", "1911"), r.entities().stream().map(ExtractedEntity::name).toList());
  }

  @Test
  void lowConfidenceIsRejectedAndRejectionsAreCappedPerSentence() {
    List<Token> t = tokens("Paris/NNP is/VBZ in/IN France/NNP");
    List<Candidate> many = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      many.add(new Candidate(span(t, 1, 1), "is in " + i, span(t, 4, 4), 0.2));
    }
    TripleFilter capped = new TripleFilter(0.5, 3, true);
    TripleFilter.Result r = capped.apply(List.of(new Sentence(4, "s", t, List.of(), many)));
    assertEquals(List.of(), r.triples());
    assertEquals(4, r.rejected().size());
    assertTrue(r.rejected().get(0).endsWith("confidence 0.2 below openie.min-confidence 0.5"), r.rejected().get(0));
    assertEquals("sentence 4: 2 more triples rejected for the same reasons", r.rejected().get(3));
    assertThrows(IllegalArgumentException.class, () -> new TripleFilter(1.5, 3, true));
  }

  @Test
  void emptyInputGivesNothing() {
    TripleFilter.Result r = filter.apply("", "", List.of());
    assertEquals(List.of(), r.triples());
    assertEquals(List.of(), r.entities());
    assertEquals(List.of(), r.rejected());
  }

  private static List<String> show(List<ExtractedTriple> ts) {
    return ts.stream().map(x -> "(" + x.subject() + "; " + x.relation() + "; " + x.object() + ")").toList();
  }

  /** "word/TAG word/TAG ..." as 1-based tokens. */
  static List<Token> tokens(String tagged) {
    List<Token> out = new ArrayList<>();
    String[] parts = tagged.trim().split("\\s+");
    for (int i = 0; i < parts.length; i++) {
      int slash = parts[i].lastIndexOf('/');
      out.add(new Token(i + 1, parts[i].substring(0, slash), parts[i].substring(slash + 1)));
    }
    return out;
  }

  /** Tokens {@code from..to} (1-based, inclusive). */
  static List<Token> span(List<Token> tokens, int from, int to) {
    return tokens.subList(from - 1, to);
  }
}
