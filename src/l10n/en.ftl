# carta's own words in English: the deck builder's (ids `ui-…`) and the
# engine's messages a player reads there (`rule-…`, `deck-…`, `api-…`).
# The command line prints the engine's messages from this file too, so
# they are tested word for word. pt-BR.ftl and es.ftl have the same ids,
# each with the same variables (tested).

## A deck against its rules (src/rules/)

rule-cards = { $count ->
    [one] { $count } card
   *[other] { $count } cards
}
rule-counted = { $count } { $noun } { $count ->
    [one] card
   *[other] cards
}
rule-noun-kinds = { $kinds }
rule-noun-matching-kinds = matching { $kinds }
rule-noun-matching = matching
rule-either = { $first } or { $second }
rule-exactly = exactly { $n }
rule-between = between { $min } and { $max }
rule-at-least = at least { $n }
rule-at-most = at most { $n }
rule-any-number = any number
rule-copies = { $count } copies
rule-copies-worst = at most { $count } of a card
rule-copies-within = each card within its limit
rule-percent-at-most = at most { $max }%
rule-share = { $percent } ({ $count } of { $total } cards)
rule-share-largest = largest { $group } { $percent }
rule-no-cards = no cards
rule-bind-none = no single bound card
rule-bind-none-expected = nothing (the rule applies when there is exactly one)
rule-bind-nothing = nothing
rule-bind-has = { $field } { $value }
rule-bind-like = { $field } { $value } like { $card }
rule-bind-all = all { $field } { $value }
rule-bind-of = the { $field } of { $card }
rule-times = { $count } times
rule-every-different = every card different
rule-different = { $count } different
rule-the-deck = the deck
rule-broken = { $actual }; the rule *{ $rule }* requires { $expected }
rule-broken-at = { $subject }: { $actual }; the rule *{ $rule }* requires { $expected }
rule-breach = { $subject }: { $actual }

## A deck that cannot be judged (src/deck.rs)

deck-no-zones = the game `{ $game }` declares no deck zones, so it has no decks
deck-unknown-zone = `{ $zone }` is not a zone of `{ $game }`
deck-unknown-card = `{ $card }` is not a card of `{ $game }`
deck-zone-kind = `{ $card }` is of kind `{ $kind }`, which the zone `{ $zone }` does not take
deck-zone-kind-help = the zone `{ $zone }` ({ $name }) takes: { $kinds }
deck-unknown-format = `{ $format }` is not a format of `{ $game }`
deck-no-formats = `{ $game }` declares no formats: remove `format` to judge the deck by the game's rules
deck-did-you-mean = did you mean `{ $name }`?
deck-zones-are = zones: { $names }
deck-formats-are = formats: { $names }
deck-not-judged = { $message } ({ $code })
deck-not-judged-help = { $message } ({ $code }): { $help }

## A text deck list (src/decklist/)

list-syntax = a card line needs a name after its count
list-syntax-help = write lines as `3 Card Name`
list-no-formats = `{ $game }` declares no formats: remove the line
list-unknown-zone = `{ $heading }` is not a zone of `{ $game }`, so its lines are left out
list-zones-are = the zones are: { $names }
list-bad-count = the count of `{ $name }` must be a whole number from 1 to { $max }, but it is { $digits }
list-bad-count-help = write how many copies the deck holds, from 1 to { $max }; remove the line for none
list-too-many = the lines of `{ $name }` add up to more than { $max } copies
list-card-help = write the card's name as the game prints it, or its id
list-ambiguous = `{ $name }` names { $count } cards
list-ambiguous-help = write the id of the one meant: { $ids }
list-name-too-long-help = shorten the `Name:` line to at most { $max } characters
list-other-game = the list is for `{ $named }`, not for `{ $game }`
list-other-game-help = open the list in its game's builder

## The builder's own refusals (src/server/builder/)

api-not-judged = the deck could not be judged
deck-name-too-long = the deck's name is longer than { $max } characters
api-bad-count = the count of `{ $card }` must be from 1 to { $max }, not { $count }
api-other-game = this code is a deck of `{ $named }`, not of `{ $game }`
api-exists = `{ $file }` exists; save again to replace it


## The odds of a draw (src/play/): the builder's odds route and `carta deck odds`

play-no-zones = `{ $game }` declares no deck zones to draw from
play-unknown-zone = `{ $zone }` is not a zone of `{ $game }`
play-no-hand = `{ $game }` declares no opening hand (`[play] opening-hand`): give the hand size
play-hand-bounds = a hand is from 1 to { $max } cards, a turn's draw at most { $max }
play-turn-bounds = the turn is from 1 to { $max }


## The player's collection in the builder (src/server/builder/collection.rs)

collection-unknown-card = `{ $card }` is not a card of `{ $game }`
collection-bad-count = a count of copies owned is from 0 to { $max }, not { $count }
collection-has-problems = `{ $file }` has problems: line { $line }, column { $column }: { $message } — mend the file first
collection-other-game = it is a collection of `{ $game }`
collection-no-parse = it does not parse

## The deck builder's pages (src/server/builder/assets/): a script reads
## these through t("ui-…", {name: value}). A message with a count picks
## its plural form by `$count` (or the one number it selects by).

ui-title-games = carta — games
ui-title-cards = { $game } — cards
ui-title-deck = { $game } — deck builder
ui-title-organize = carta — deck verdicts for organisers
ui-noscript = This page needs JavaScript.
ui-language = Language
ui-unknown-language = The language “{ $asked }” is not available: the page is in English.
ui-no-json = the server sent no JSON
ui-server-answered = the server answered { $status }
ui-nav-cards = Cards
ui-nav-deck = Deck builder
ui-nav-organize = Organisers
ui-games = Games
ui-browse-cards = browse { $count ->
    [one] { $count } card
   *[other] { $count } cards
}
ui-build-deck = build a deck
ui-no-decks = no decks
ui-search = Search
ui-search-placeholder = name, text or flag
ui-kind = Kind
ui-kind-all = all
ui-any = any
ui-yes = yes
ui-no = no
ui-range-from = { $field } from
ui-range-to = { $field } to
ui-sort-by = Sort by
ui-sort-kind = kind
ui-sort-name = name
ui-shown = { $shown } of { $count ->
    [one] { $count } card
   *[other] { $count } cards
}
ui-pool-label = Cards
ui-deck-label = The deck
ui-skip-deck = Skip to the deck
ui-verdict-label = Verdict
ui-checking = Checking…
ui-card-dialog = Card
ui-new-deck = New deck
ui-own-rules = { $game }’s own rules
ui-undo = Undo
ui-redo = Redo
ui-deck-code = Deck code
ui-deck-code-label = Deck code:
ui-share-link = share link
ui-import-placeholder = paste a deck code
ui-import-label = Deck code to import
ui-import = Import
ui-file-placeholder = file name (from the deck name)
ui-file-label = File name to save as
ui-save-to = Save to { $folder }/
ui-replace = Replace it
ui-share = Share
ui-filters = Filters
ui-changed-since = Changed since
ui-since-none = no version
ui-changed-mark = changed in { $version }
ui-history = History (now { $version })
ui-history-was = was: { $values }
ui-times-help = copies per add, up to the copy limit
ui-add-times = Add ×
ui-find-cards = Find cards
ui-your-deck = Your deck
ui-name = Name
ui-format = Format
ui-at-limit = { $card } has { $count ->
    [one] { $count } copy
   *[other] { $count } copies
}, its limit
ui-close = Close
ui-close-card = Close { $card }
ui-would-break = would break: { $rules }
ui-add-to = Add { $card } to { $zone }
ui-add-to-blocked = Add { $card } to { $zone } (would break a rule)
ui-cards = { $count ->
    [one] { $count } card
   *[other] { $count } cards
}
ui-empty-zone = empty: add { $kinds }
ui-breaks = breaks: { $rules }
ui-breaks-sr = (breaks { $rules })
ui-one-less = One less { $card }
ui-one-more = One more { $card }
ui-legal = Legal
ui-illegal = Illegal
ui-rules-broken = { $count ->
    [one] { $count } rule broken
   *[other] { $count } rules broken
}
ui-all-hold = Every rule of { $game } holds.
ui-has-requires = has { $actual }; requires { $expected }
ui-rulebook = rulebook: { $source }
ui-cards-involved = cards: { $cards }
ui-chart-title = What the rules bound
ui-not-judged = Not judged: { $why }
ui-out-of-date = Out of date
ui-outdated-note = The server did not answer ({ $why }): this verdict is of an earlier deck. Retrying…
ui-imported = imported
ui-not-imported = not imported: the server did not answer ({ $why })
ui-saving = saving…
ui-saved-as = saved as { $file }
ui-not-saved = not saved: the server did not answer ({ $why }); try again
ui-deck-list = Deck list
ui-list-label = A text list (or a code, or a share link):
ui-list-placeholder = paste a deck list (3 Card Name lines under zone headings) or a deck code
ui-list-by = name cards by
ui-by-name = by name
ui-by-id = by id
ui-player = Player
ui-player-placeholder = player (for the decklist)
ui-import-list = Import list
ui-export-list = Export list
ui-printable = Printable decklist
ui-reading-list = reading the list…
ui-list-problems = not imported: { $count ->
    [one] { $count } problem
   *[other] { $count } problems
} in the list
ui-use-suggestion = Use “{ $suggestion }”
ui-replace-at = Use “{ $suggestion }” in place of { $found } on line { $line }
ui-list-changed = the list changed: import it again
ui-line-column = line { $line }, column { $column }: { $message }
ui-list-exported = the deck as a list: copy it from the box
ui-no-list = no list: the server did not answer ({ $why })
ui-no-decklist = no decklist: the deck has no code until the server judges it
ui-organize-title = Deck verdicts for organisers
ui-organize-intro = Paste deck codes or share links, one per line (“Player: CODE” names the player), and/or choose deck files (.toml; a file’s player = “…” names its player). Each deck is judged by its game’s rules, or by the event’s game and format when chosen.
ui-codes-label = deck codes, one per line
ui-codes-placeholder = Ana Lima: <deck code>
ui-files-label = deck files
ui-event-game = Event game
ui-any-game = any game
ui-game-own-rules = the game’s own rules
ui-judge = Judge the decks
ui-legal-of = { $legal } of { $count ->
    [one] { $count } deck
   *[other] { $count } decks
} legal
ui-download-csv = download CSV
ui-col-source = Source
ui-col-player = Player
ui-col-game = Game
ui-col-deck = Deck
ui-col-format = Format
ui-col-verdict = Verdict
ui-col-cards = Cards
ui-col-errors = Errors
ui-col-warnings = Warnings
ui-col-same = Same deck as
ui-verdict-legal = legal
ui-verdict-illegal = illegal
ui-verdict-invalid = invalid
ui-not-judged-decks = not judged: the server did not answer ({ $why })

## The playtest panel (play.js): a sample hand, draw odds, a curve

ui-play-title = Playtest
ui-play-declared = Opening hand: { $hand ->
    [one] { $hand } card
   *[other] { $hand } cards
} from { $zone }{ $mulligan }; then { $draws } drawn each turn, as { $game } declares.
ui-play-declared-mulligan = {" "}(after a mulligan: { $n })
ui-play-undeclared = { $game } declares no opening hand: type the hand size. Cards are drawn from { $zone }.
ui-play-hand-size = Hand size
ui-play-draws = Cards drawn each later turn
ui-play-hand-title = Sample hand
ui-play-draw = Draw a hand
ui-play-mulligan = Mulligan
ui-play-mulligans-spent = { $game } allows { $n ->
    [one] one mulligan
   *[other] { $n } mulligans
} a game: draw a new hand to start again.
ui-play-next = Draw the next card
ui-play-hand-list = Your hand
ui-play-no-hand = No hand drawn yet.
ui-play-new-hand = New hand of { $n }, { $left } left in { $zone }: { $cards }.
ui-play-after-mulligan = Mulligan { $m }: a hand of { $n }, { $left } left in { $zone }: { $cards }.
ui-play-drew = Drew { $card }: { $n } in hand, { $left } left in { $zone }.
ui-play-empty-zone = { $zone } is empty: add cards to draw a hand.
ui-play-no-more = { $zone } has no more cards to draw.
ui-play-need-hand = Type a hand size first.
ui-play-changed = The deck changed: draw a new hand.
ui-play-odds-title = Draw odds
ui-play-group = Group
ui-play-at-least = At least
ui-play-by-turn = By turn
ui-play-kinds = Kinds
ui-play-flags = Flags
ui-play-cards-in = Cards in { $zone }
ui-play-flag-set = { $title }: yes
ui-play-odds = { $p } to draw at least { $k } × { $group } by turn { $t }: { $seen } cards seen of the { $deck } in { $zone }, { $count } of them { $group }.
ui-play-odds-need = Type a whole number in each field.
ui-play-odds-failed = No odds: { $why }
ui-play-curve-title = Curve
ui-play-curve-field = Field
ui-play-curve-of = Cards of { $zone } by { $field }
ui-play-cards = cards
ui-play-none = none
ui-play-no-curve = No integer field to chart.

## The player's collection (collection.js): owned only, owned counts,
## missing copies beside the verdict

ui-owned-only = Owned only
ui-owned-edit = Edit my collection
ui-owned-count = { $count } owned
ui-owned-group = Copies of { $card } owned
ui-owned-more = One more owned copy of { $card }
ui-owned-less = One less owned copy of { $card }
ui-owned-saving = saving…
ui-owned-saved = saved in { $file }
ui-owned-not-saved = not saved: { $why }
ui-owned-no-answer = not saved: the server did not answer ({ $why })
ui-owned-none = no collection yet: the first count set here creates { $file }
ui-owned-from = collection: { $file }
ui-owned-problems = { $file } has problems (mend it to edit it here):
ui-owned-problem = line { $line }, column { $column }: { $message }
ui-owned-copies = { $count ->
    [one] { $count } copy
   *[other] { $count } copies
}
ui-owned-cards = { $count ->
    [one] { $count } card
   *[other] { $count } cards
}
ui-owned-missing-title = Missing { $copies } of { $cards } from your collection
ui-owned-missing-line = { $card }: { $count } missing (the deck needs { $needed }, you own { $owned })
ui-owned-complete = Your collection holds every copy this deck needs.
ui-owned-unusable = { $file } was not read: { $why }
ui-owned-note = Owning cards is not a rule of the game: the verdict does not count it.
