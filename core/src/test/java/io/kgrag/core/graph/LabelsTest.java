package io.kgrag.core.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LabelsTest {

  // --- defaultLabel ------------------------------------------------------------------------------

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "http://dbpedia.org/resource/Barack_Obama|Barack Obama",
        "http://dbpedia.org/resource/Honolulu|Honolulu",
        "http://dbpedia.org/resource/Caf%C3%A9_de_Flore|Café de Flore",
        "http://dbpedia.org/resource/AC%2FDC|AC/DC",
        "http://dbpedia.org/resource/Gr%C3%A9goire_Colin|Grégoire Colin",
        "https://dbpedia.org/resource/Hello,_Dolly!_(film)|Hello, Dolly! (film)",
        "http://dbpedia.org/resource/C++|C++",
        "http://dbpedia.org/resource/1+1=2|1+1=2",
        "http://dbpedia.org/resource/_Leading_and_trailing_|Leading and trailing",
        "http://dbpedia.org/resource/100%_pure|100% pure",
        "http://dbpedia.org/resource/%E4%B8%AD%E6%96%87|中文",
        "http://zh.dbpedia.org/resource/北京|北京",
        "http://xmlns.com/foaf/0.1/#Person_Name|Person Name",
        "http://www.w3.org/2000/01/rdf-schema#label|label",
        "http://www.wikidata.org/entity/Q76|Q76",
      })
  void defaultLabelOfIris(String iri, String label) {
    assertEquals(label, Labels.defaultLabel(iri));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/m/027rn",
        "/m/0_abc",
        "Barack_Obama",
        "Kismet",
        "Crouching Tiger, Hidden Dragon",
        "O.S.O.",
        "_:b0",
        "urn:isbn:0451450523",
        "100%_pure",
        "Caf%C3%A9"
      })
  void defaultLabelOfPlainKeysIsTheKey(String key) {
    assertEquals(key, Labels.defaultLabel(key));
  }

  @Test
  void singularUndoesRegularPluralsAndTheCompoundsOfPeople() {
    assertEquals("country", Labels.singular("countries"));
    assertEquals("language", Labels.singular("languages"));
    assertEquals("campus", Labels.singular("campus"));
    assertEquals("businessperson", Labels.singular("businesspeople"));
    assertEquals("salesperson", Labels.singular("salespeople"));
    // "people" alone names peoples as often as persons
    assertEquals("people", Labels.singular("people"));
  }

  @Test
  void defaultLabelOfIriWithoutLocalNameIsTheKey() {
    assertEquals("http://example.org/", Labels.defaultLabel("http://example.org/"));
    assertEquals("http://example.org/ns#", Labels.defaultLabel("http://example.org/ns#"));
  }

  @Test
  void defaultLabelIsNeverBlank() {
    // a local name of only underscores or escaped spaces must not become an empty label
    for (String key : new String[] {"http://example.org/_", "http://example.org/___", "http://example.org/%20", "http://example.org/_%20_"}) {
      String label = Labels.defaultLabel(key);
      assertFalse(label.isBlank(), () -> key + " -> '" + label + "'");
    }
  }

  @Test
  void defaultLabelOfTextMentioningAUrlIsTheText() {
    // N-Triples literal objects become entity keys; a sentence that contains a URL is not an IRI
    String text = "See http://example.org/about us for details";
    assertEquals(text, Labels.defaultLabel(text));
    String homepage = "Official site: https://www.barackobama.com/about";
    assertEquals(homepage, Labels.defaultLabel(homepage));
  }

  // --- relationText ------------------------------------------------------------------------------

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "directed_by|directed by",
        "starred_actors|starred actors",
        "has_tags|has tags",
        "release_year|release year",
        "/film/film/genre|film genre",
        "/people/person/nationality|people person nationality",
        "/location/country/form_of_government|location country form of government",
        "/film/film/release_date_s./film/film_regional_release_date/film_release_distribution_medium"
            + "|film release date s film regional release date film release distribution medium",
        "/people/person/spouse_s./people/marriage/type_of_union|people person spouse s people marriage type of union",
        "http://dbpedia.org/ontology/birthPlace|birth place",
        "http://dbpedia.org/ontology/numberOfEmployees|number of employees",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#type|type",
        "http://www.w3.org/2004/02/skos/core#prefLabel|pref label",
        "http://schema.org/name|name",
        "birthPlace|birth place",
        "Directed_By|directed by",
        "_hypernym|hypernym",
        "derivationally related form|derivationally related form",
      })
  void relationText(String relation, String text) {
    assertEquals(text, Labels.relationText(relation));
  }

  @Test
  void relationTextWithoutWordsFallsBackToTheRelation() {
    assertEquals("/", Labels.relationText("/"));
    assertEquals("._", Labels.relationText("._"));
  }

  // --- normalize ---------------------------------------------------------------------------------

  @Test
  void normalizeFoldsAccentsCaseAndPunctuation() {
    assertEquals("gregoire colin", Labels.normalize("Grégoire Colin"));
    assertEquals(Labels.normalize("Grégoire Colin"), Labels.normalize("gregoire-colin"));
    assertEquals(Labels.normalize("Grégoire Colin"), Labels.normalize("  GREGOIRE   COLIN  "));
    assertEquals(Labels.normalize("Grégoire Colin"), Labels.normalize("Gre\u0301goire_Colin"), "decomposed accent");
    assertEquals(Labels.normalize("Chow Yun-fat"), Labels.normalize("chow yun fat"));
    assertEquals(Labels.normalize("Hello, Dolly!"), Labels.normalize("hello dolly"));
    assertEquals("ecole", Labels.normalize("ÉCOLE"));
  }

  @Test
  void normalizeKeepsAcronymsAndDigits() {
    assertEquals("o s o", Labels.normalize("O.S.O."));
    assertFalse(Labels.normalize("O.S.O.").isEmpty());
    assertEquals("r2 d2", Labels.normalize("R2-D2"));
    assertEquals("1969", Labels.normalize("1969"));
  }

  @Test
  void normalizeKeepsNonLatinScripts() {
    assertEquals("北京", Labels.normalize("北京"));
    assertEquals("москва", Labels.normalize("Москва"));
    assertNotEquals(Labels.normalize("北京"), Labels.normalize("上海"));
  }

  @Test
  void normalizeCompatibilityForms() {
    assertEquals("fi", Labels.normalize("\uFB01"), "ligature");
    assertEquals("abc", Labels.normalize("\uFF21\uFF22\uFF23"), "fullwidth");
  }

  @Test
  void normalizeIsNotLocaleSensitive() {
    java.util.Locale saved = java.util.Locale.getDefault();
    try {
      java.util.Locale.setDefault(java.util.Locale.forLanguageTag("tr"));
      assertEquals("istanbul ile", Labels.normalize("ISTANBUL ILE"));
    } finally {
      java.util.Locale.setDefault(saved);
    }
  }

  @Test
  void normalizeEmptyAndNull() {
    assertEquals("", Labels.normalize(null));
    assertEquals("", Labels.normalize(""));
    assertEquals("", Labels.normalize("  ... !!! "));
  }

  @Test
  void normalizeIsIdempotent() {
    for (String s : new String[] {"Grégoire Colin", "O.S.O.", "Hello, Dolly!", "北京", "ÉCOLE"}) {
      String once = Labels.normalize(s);
      assertEquals(once, Labels.normalize(once), s);
    }
  }
}
