package io.kgrag.core.text.extract.mentions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kgrag.core.text.extract.ExtractedEntity;
import io.kgrag.core.text.extract.Extraction;
import io.kgrag.core.text.extract.Extractors;
import io.kgrag.core.text.extract.TextChunk;
import io.kgrag.core.text.extract.TripleExtractor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MentionExtractorTest {
  private static Extraction read(Map<String, String> settings, String title, String text) {
    try (TripleExtractor x = Extractors.provider("mentions").create(settings)) {
      return x.extract(new TextChunk(1L, "d1", title, text));
    }
  }

  private static List<String> names(Extraction x) {
    return x.entities().stream().map(ExtractedEntity::name).toList();
  }

  private static List<String> triples(Extraction x) {
    return x.triples().stream().map(t -> t.subject() + " | " + t.relation() + " | " + t.object()).toList();
  }

  @Test
  void namesNumbersAndTheWordsBetweenThem() {
    Extraction x = read(Map.of(), "", "Marie Curie was born in Warsaw in 1867. She studied at the University of Paris.");
    assertEquals(List.of("Marie Curie", "Warsaw", "1867", "University of Paris"), names(x));
    assertEquals(List.of("Marie Curie | was born in | Warsaw", "Warsaw | in | 1867"), triples(x));
    assertEquals("DATE", x.entities().get(2).type());
    assertEquals("Marie Curie was born in Warsaw in 1867.", x.triples().get(0).description());
  }

  @Test
  void aPronounOpenerRelatesTheTitleAndEveryChunkMentionsIt() {
    Extraction x = read(Map.of(), "Grégoire Colin", "Grégoire Colin is a French actor. He appeared in Beau Travail by Claire Denis.");
    assertEquals(List.of("Grégoire Colin", "French actor", "Beau Travail", "Claire Denis"), names(x));
    assertEquals(
        List.of("Grégoire Colin | is a | French actor", "Grégoire Colin | appeared in | Beau Travail", "Beau Travail | by | Claire Denis"),
        triples(x));
    assertEquals(List.of("Grégoire Colin", "film", "Djibouti"), names(read(Map.of(), "Grégoire Colin", "The film was shot in Djibouti.")));
    assertEquals(List.of("film", "Djibouti"), names(read(Map.of("mentions.title", "false"), "Grégoire Colin", "The film was shot in Djibouti.")));
  }

  @Test
  void aTitleOpeningWithAnArticleNamesTheSameEntityAsTheRunningText() {
    // the title's chunk writes "the Rank Organisation", another chunk "by the Rank Organisation": one name, one key
    Extraction own = read(Map.of(), "The Rank Organisation", "The Rank Group bought the Rank Organisation. It was sold to Carlton.");
    assertEquals(List.of("Rank Organisation", "Rank Group", "Carlton"), names(own));
    assertEquals(
        List.of("Rank Group | bought the | Rank Organisation", "Rank Organisation | was sold to | Carlton"), triples(own));
    assertEquals(List.of("Novair", "Rank Organisation"), names(read(Map.of(), "Novair", "Novair was bought by the Rank Organisation.")));
    // an article before a closed-class word stays: "The Who" is not "Who"
    assertEquals(List.of("The Who"), names(read(Map.of(), "The Who", "The Who played.")));
  }

  @Test
  void listsAndClausesAreNotRelationsAndOpenersAreNotNames() {
    Extraction x = read(Map.of(), "", "Later the band toured France, Spain and Italy. Later, Oslo (a city) hosted it. It was later.");
    assertEquals(List.of("band", "France", "Spain", "Italy", "Oslo", "city"), names(x));
    assertEquals(List.of("band | toured | France"), triples(x));
    // "Later" is written in lower case nowhere in this chunk, so here it may open a name
    assertEquals(List.of("Later Roman Empire"), names(read(Map.of(), "", "Later Roman Empire fell.")));
  }

  @Test
  void nounPhrasesStopAtVerbsAndCanBeTurnedOff() {
    assertEquals(List.of("first studio album"), names(read(Map.of(), "", "The first studio album directed by nobody sold well.")));
    assertEquals(List.of(), names(read(Map.of("mentions.noun-phrases", "false"), "", "The first studio album sold well.")));
    assertEquals(
        List.of("Rome | is near | Ostia"),
        triples(read(Map.of("mentions.max-gap", "2"), "", "Rome is very far indeed from Oslo. Rome is near Ostia.")));
  }

  @Test
  void knownLabelsWinOverNamesLongestFirst(@TempDir Path dir) throws Exception {
    Path labels = dir.resolve("labels.txt");
    Files.writeString(labels, "new york\nnew york city\nbig apple\n");
    Extraction x = read(Map.of("mentions.labels", labels.toString()), "", "New York City is called the big apple by New Yorkers.");
    assertEquals(List.of("New York City", "big apple", "New Yorkers"), names(x));
    assertEquals(List.of("New York City | is called the | big apple", "big apple | by | New Yorkers"), triples(x));
  }

  @Test
  void badSettingsNameTheKey(@TempDir Path dir) {
    String gap = assertThrows(IllegalArgumentException.class, () -> read(Map.of("mentions.max-gap", "0"), "", "x")).getMessage();
    assertTrue(gap.contains("mentions.max-gap") && gap.contains("'0'"), gap);
    String title = assertThrows(IllegalArgumentException.class, () -> read(Map.of("mentions.title", "yes"), "", "x")).getMessage();
    assertTrue(title.contains("mentions.title must be true or false"), title);
    String file = assertThrows(IllegalArgumentException.class, () -> read(Map.of("mentions.labels", dir.resolve("none.txt").toString()), "", "x")).getMessage();
    assertTrue(file.contains("mentions.labels: no file") && file.contains("none.txt"), file);
  }
}
