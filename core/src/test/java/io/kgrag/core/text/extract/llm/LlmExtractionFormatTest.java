package io.kgrag.core.text.extract.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.llm.ChatMessage;
import io.kgrag.core.text.extract.ExtractedEntity;
import io.kgrag.core.text.extract.ExtractedTriple;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.TextChunk;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The two paper prompts and their strict readers, without an endpoint. */
class LlmExtractionFormatTest {
  private static final LightRagExtractionFormat LIGHTRAG =
      new LightRagExtractionFormat(List.of("person", "geo", "event"), "English", true);
  private static final SgragExtractionFormat SGRAG = new SgragExtractionFormat(true);

  private static String rec(String... fields) {
    return "(" + String.join("<|>", fields) + ")";
  }

  private static List<String> names(Extraction x) {
    return x.entities().stream().map(ExtractedEntity::name).collect(Collectors.toList());
  }

  private static String reasons(Extraction x) {
    return String.join("\n", x.rejected());
  }

  // ----------------------------------------------------------------------------------------------- lightrag

  @Test
  void lightragReplyBecomesEntitiesAndTriples() {
    String reply =
        "<think>the text is about Curie</think>\n"
            + rec("\"entity\"", "\"Marie Curie\"", "\"person\"", "\"A physicist born in Warsaw.\"") + "##\n"
            + rec("\"entity\"", "\"Warsaw\"", "\"geo\"", "\"Capital of Poland.\"") + "##\n"
            + rec("\"relationship\"", "\"Marie Curie\"", "\"Warsaw\"", "\"Curie was born in Warsaw.\"", "\"place of birth\"", "9") + "##\n"
            + rec("\"content_keywords\"", "\"physics, biography\"")
            + "<|COMPLETE|>\n"
            + rec("\"entity\"", "\"After Complete\"", "\"person\"", "\"never read\"");
    Extraction x = LIGHTRAG.parse(reply);
    assertEquals(List.of("Marie Curie", "Warsaw"), names(x));
    assertEquals(new ExtractedEntity("Marie Curie", "PERSON", "A physicist born in Warsaw."), x.entities().get(0));
    assertEquals(
        List.of(new ExtractedTriple("Marie Curie", "place of birth", "Warsaw", "Curie was born in Warsaw.", 0.9)), x.triples());
    assertEquals(List.of(), x.rejected());
    assertEquals(0, x.tokensIn());
  }

  @Test
  void lightragRecordsOnTheirOwnLinesWithoutRecordDelimiter() {
    String reply =
        "Output:\n```\n"
            + rec("entity", "Ada Lovelace", "person", "Mathematician") + "\n"
            + rec("entity", "Charles Babbage", "person", "Inventor") + "\n"
            + rec("relationship", "Ada Lovelace", "Charles Babbage", "She worked with him.", "collaboration", "7.5") + "\n```";
    Extraction x = LIGHTRAG.parse(reply);
    assertEquals(List.of("Ada Lovelace", "Charles Babbage"), names(x));
    assertEquals(1, x.triples().size());
    assertEquals(0.75, x.triples().get(0).confidence(), 1e-12);
    assertEquals(List.of(), x.rejected(), reasons(x));
  }

  @Test
  void lightragUnusableRecordsAreRejectedWithReasonAndText() {
    String reply =
        String.join(
            "##",
            rec("entity", "Good One", "person", "kept"),
            rec("entity", "Three Fields", "person"),
            rec("entity", "", "person", "no name"),
            rec("relationship", "Good One", "Other", "desc", "knows", "high"),
            rec("relationship", "", "Other", "desc", "knows", "3"),
            rec("relationship", "Good One", "Other", "desc", "", "3"),
            rec("relationship", "Good One", "Other", "desc", "knows", "-2"),
            rec("relationship", "Good One", "Other", "desc", "knows"),
            rec("event", "Something", "x", "y"),
            "\"entity\"<|>\"No Parens\"<|>\"person\"<|>\"d\"",
            "(\"entity\"<|>\"Cut Short\"<|>\"person\"<|>\"the token limit hit in the mid");
    Extraction x = LIGHTRAG.parse(reply);
    assertEquals(List.of("Good One"), names(x));
    assertEquals(List.of(), x.triples());
    List<String> r = x.rejected();
    assertEquals(10, r.size(), reasons(x));
    assertTrue(r.get(0).startsWith("lightrag: entity record has 3 fields, expected 4: (entity<|>Three Fields"), r.get(0));
    assertTrue(r.get(1).startsWith("lightrag: entity record without a name"), r.get(1));
    assertTrue(r.get(2).startsWith("lightrag: relationship strength 'high' is not a number >= 0"), r.get(2));
    assertTrue(r.get(3).startsWith("lightrag: relationship without a source entity"), r.get(3));
    assertTrue(r.get(4).startsWith("lightrag: relationship without keywords"), r.get(4));
    assertTrue(r.get(5).startsWith("lightrag: relationship strength '-2'"), r.get(5));
    assertTrue(r.get(6).startsWith("lightrag: relationship record has 5 fields, expected 6"), r.get(6));
    assertTrue(r.get(7).startsWith("lightrag: unknown record type 'event'"), r.get(7));
    assertTrue(r.get(8).startsWith("lightrag: record not enclosed in ( )"), r.get(8));
    assertTrue(r.get(9).startsWith("lightrag: record cut short"), r.get(9));
  }

  @Test
  void lightragLongRecordsAreTruncatedInRejections() {
    String longDesc = "x".repeat(1000);
    Extraction x = LIGHTRAG.parse(rec("entity", "A", "person", longDesc, "extra"));
    assertEquals(1, x.rejected().size());
    String r = x.rejected().get(0);
    assertTrue(r.endsWith("…"), r);
    assertTrue(r.length() < 300, r);
  }

  @Test
  void replyWithoutRecordsIsReportedNotThrown() {
    Extraction prose = LIGHTRAG.parse("I am sorry, I cannot find any entity in this text.");
    assertEquals(List.of(), prose.entities());
    assertEquals(1, prose.rejected().size());
    assertTrue(prose.rejected().get(0).startsWith("lightrag: no record in the reply: I am sorry"), prose.rejected().get(0));
    assertEquals(List.of("lightrag: empty reply"), LIGHTRAG.parse("<think>hmm").rejected());
    assertEquals(List.of("sgrag: empty reply"), SGRAG.parse("").rejected());
    // only the completion delimiter: the model found nothing, which is no rejection
    assertEquals(Extraction.empty(), LIGHTRAG.parse(" <|COMPLETE|>"));
    assertEquals(Extraction.empty(), SGRAG.parse("#<COMPLETE>"));
  }

  @Test
  void lightragPromptIsFilledOnceWithDelimitersTypesAndText() {
    TextChunk chunk = new TextChunk(1, "d", "Marie Curie", "She was born in Warsaw. {{language}} stays as written.");
    List<ChatMessage> m = LIGHTRAG.messages(chunk);
    assertEquals(1, m.size());
    assertEquals("user", m.get(0).role());
    String p = m.get(0).content();
    assertTrue(p.contains("identify all pairs of (source_entity, target_entity) that are clearly related to each other"), p);
    assertTrue(p.contains("- entity_type: One of the following types: [person, geo, event]"), p);
    assertTrue(p.contains("Format each entity as (\"entity\"<|><entity_name><|><entity_type><|><entity_description>)"), p);
    assertTrue(p.contains("Use **##** as the list delimiter."), p);
    assertTrue(p.contains("5. When finished, output <|COMPLETE|>"), p);
    assertTrue(p.contains("Use English as output language."), p);
    assertTrue(p.endsWith("Text: Marie Curie\nShe was born in Warsaw. {{language}} stays as written.\n######################\nOutput:"), p);
    String withoutInput = p.replace("{{language}} stays", "");
    assertFalse(withoutInput.contains("{{"), "unfilled placeholder in " + p);
    // the worked example itself is readable by the parser
    String example = p.substring(p.indexOf("Output:\n") + "Output:\n".length(), p.indexOf("-Real Data-"));
    Extraction ex = LIGHTRAG.parse(example);
    assertEquals(4, ex.entities().size());
    assertEquals(3, ex.triples().size());
    assertEquals(List.of(), ex.rejected());
  }

  @Test
  void titleIsLeftOutWhenAskedOrAlreadyThere() {
    TextChunk chunk = new TextChunk(1, "d", "Warsaw", "Warsaw is the capital of Poland.");
    assertTrue(SGRAG.messages(chunk).get(0).content().endsWith("Text: Warsaw is the capital of Poland."));
    TextChunk other = new TextChunk(1, "d", "Poland", "Warsaw is its capital.");
    assertTrue(new SgragExtractionFormat(false).messages(other).get(0).content().endsWith("Text: Warsaw is its capital."));
    assertTrue(SGRAG.messages(other).get(0).content().endsWith("Text: Poland\nWarsaw is its capital."));
  }

  // ----------------------------------------------------------------------------------------------- sgrag

  @Test
  void sgragPromptIsTable11() {
    String p = SGRAG.messages(new TextChunk(1, "d", "", "Paris is in France.")).get(0).content();
    assertTrue(p.startsWith("-Goal-\nGiven a paragraph, identify all semantically meaningful entities and extract structured"
        + " relations among them. Each entity becomes a node and each relation becomes an edge in the output graph."), p);
    assertTrue(p.contains("Format: <id(v_i)><ℓ(v_i)><ξ(v_i)>"), p);
    assertTrue(p.contains("Format: <id(e_ij)><v_i><v_j><ξ(e_ij)>"), p);
    assertTrue(p.contains("List all nodes and edges using # as a separator. End with <COMPLETE>."), p);
    assertTrue(p.endsWith("\nText: Paris is in France."), p);
  }

  @Test
  void sgragReplyBecomesEntitiesAndTriples() {
    String reply =
        "<think>nodes first</think>Output: <v1><Paris><capital of France>#<v2><France><a country>#"
            + "<e1><v1><v2><capital of>#<e2><France><Europe><located in>\n<v3><Europe><a continent>#<e3><v2><v3><part of>"
            + "#<COMPLETE>#<v9><Never><read>";
    Extraction x = SGRAG.parse(reply);
    assertEquals(List.of("Paris", "France", "Europe"), names(x));
    assertEquals(new ExtractedEntity("Paris", "", "capital of France"), x.entities().get(0));
    assertEquals(
        List.of(
            new ExtractedTriple("Paris", "capital of", "France", "", 1.0),
            new ExtractedTriple("France", "located in", "Europe", "", 1.0),
            new ExtractedTriple("France", "part of", "Europe", "", 1.0)),
        x.triples());
    assertEquals(List.of(), x.rejected(), reasons(x));
  }

  @Test
  void sgragUnusableItemsAreRejected() {
    String reply =
        "<v1><Paris><a city>#<v1><Lyon><another city>#<v2><><no label>#<e1><v1><v7><near>#<e2><v1>#"
            + "<e3><v1><v1><>#<a><b><c><d><e>#<v4><Cut <short";
    Extraction x = SGRAG.parse(reply);
    assertEquals(List.of("Paris"), names(x));
    assertEquals(List.of(), x.triples());
    List<String> r = x.rejected();
    assertEquals(7, r.size(), reasons(x));
    assertTrue(r.get(0).startsWith("sgrag: node id v1 is listed twice: <v1><Lyon>"), r.get(0));
    assertTrue(r.get(1).startsWith("sgrag: node without a label"), r.get(1));
    assertTrue(r.get(2).startsWith("sgrag: item has 2 fields (a node has 3, an edge 4)"), r.get(2));
    assertTrue(r.get(3).startsWith("sgrag: item has 5 fields"), r.get(3));
    assertTrue(r.get(4).startsWith("sgrag: item cut short"), r.get(4));
    assertTrue(r.get(5).startsWith("sgrag: edge e1 names node 'v7', which is not listed"), r.get(5));
    assertTrue(r.get(6).startsWith("sgrag: edge e3 has no relation description"), r.get(6));
  }
}
