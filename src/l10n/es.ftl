# Las palabras de carta en español: las del constructor de mazos (`ui-…`)
# y los mensajes del motor que el jugador lee allí (`rule-…`, `deck-…`,
# `api-…`). Los mismos ids que en.ftl, con las mismas variables.

## Un mazo frente a sus reglas

rule-cards = { $count ->
    [one] { $count } carta
   *[other] { $count } cartas
}
rule-counted = { $count } { $count ->
    [one] carta
   *[other] cartas
} { $noun }
rule-noun-kinds = de { $kinds }
rule-noun-matching-kinds = de { $kinds } que cumplen el filtro
rule-noun-matching = que cumplen el filtro
rule-either = { $first } o { $second }
rule-exactly = exactamente { $n }
rule-between = entre { $min } y { $max }
rule-at-least = al menos { $n }
rule-at-most = como máximo { $n }
rule-any-number = cualquier número
rule-copies = { $count ->
    [one] { $count } copia
   *[other] { $count } copias
}
rule-copies-worst = como máximo { $count } { $count ->
    [one] copia
   *[other] copias
} de una carta
rule-copies-within = cada carta dentro de su límite
rule-percent-at-most = como máximo el { $max }%
rule-share = { $percent } ({ $count } de { $total ->
    [one] { $total } carta
   *[other] { $total } cartas
})
rule-share-largest = el mayor, { $group }, con { $percent }
rule-no-cards = ninguna carta
rule-bind-none = ninguna carta vinculante única
rule-bind-none-expected = nada (la regla se aplica cuando hay exactamente una)
rule-bind-nothing = nada
rule-bind-has = { $field } { $value }
rule-bind-like = { $field } { $value }, como { $card }
rule-bind-all = todas con { $field } { $value }
rule-bind-of = el { $field } de { $card }
rule-times = { $count ->
    [one] { $count } vez
   *[other] { $count } veces
}
rule-every-different = todas las cartas diferentes
rule-different = { $count ->
    [one] { $count } diferente
   *[other] { $count } diferentes
}
rule-the-deck = el mazo
rule-broken = { $actual }; la regla *{ $rule }* exige { $expected }
rule-broken-at = { $subject }: { $actual }; la regla *{ $rule }* exige { $expected }
rule-breach = { $subject }: { $actual }

## Un mazo que no se puede juzgar

deck-no-zones = el juego `{ $game }` no declara zonas de mazo, así que no tiene mazos
deck-unknown-zone = `{ $zone }` no es una zona de `{ $game }`
deck-unknown-card = `{ $card }` no es una carta de `{ $game }`
deck-zone-kind = `{ $card }` es del tipo `{ $kind }`, que la zona `{ $zone }` no admite
deck-zone-kind-help = la zona `{ $zone }` ({ $name }) admite: { $kinds }
deck-unknown-format = `{ $format }` no es un formato de `{ $game }`
deck-no-formats = `{ $game }` no declara formatos: quita `format` para juzgar el mazo por las reglas del juego
deck-did-you-mean = ¿quisiste decir `{ $name }`?
deck-zones-are = zonas: { $names }
deck-formats-are = formatos: { $names }
deck-not-judged = { $message } ({ $code })
deck-not-judged-help = { $message } ({ $code }): { $help }

## Una lista de mazo en texto

list-syntax = una línea de carta necesita un nombre después de la cantidad
list-syntax-help = escribe las líneas como `3 Nombre de Carta`
list-no-formats = `{ $game }` no declara formatos: quita la línea
list-unknown-zone = `{ $heading }` no es una zona de `{ $game }`, así que sus líneas quedan fuera
list-zones-are = las zonas son: { $names }
list-bad-count = la cantidad de `{ $name }` debe ser un número entero de 1 a { $max }, pero es { $digits }
list-bad-count-help = escribe cuántas copias tiene el mazo, de 1 a { $max }; quita la línea para ninguna
list-too-many = las líneas de `{ $name }` suman más de { $max } copias
list-card-help = escribe el nombre de la carta como lo imprime el juego, o su id
list-ambiguous = `{ $name }` nombra { $count } cartas
list-ambiguous-help = escribe el id de la carta que quieres: { $ids }
list-name-too-long-help = acorta la línea `Name:` a { $max } caracteres como mucho
list-other-game = la lista es de `{ $named }`, no de `{ $game }`
list-other-game-help = abre la lista en el constructor de su juego

## Los rechazos del propio constructor

api-not-judged = el mazo no se pudo juzgar
deck-name-too-long = el nombre del mazo tiene más de { $max } caracteres
api-bad-count = la cantidad de `{ $card }` debe ser de 1 a { $max }, no { $count }
api-other-game = este código es un mazo de `{ $named }`, no de `{ $game }`
api-exists = `{ $file }` ya existe; guarda de nuevo para reemplazarlo


## Las probabilidades de un robo (src/play/)

play-no-zones = `{ $game }` no declara zonas de mazo de las que robar
play-unknown-zone = `{ $zone }` no es una zona de `{ $game }`
play-no-hand = `{ $game }` no declara una mano inicial (`[play] opening-hand`): indica el tamaño de la mano
play-hand-bounds = una mano tiene de 1 a { $max } cartas, y el robo de un turno como mucho { $max }
play-turn-bounds = el turno va de 1 a { $max }


## La colección del jugador en el constructor (src/server/builder/collection.rs)

collection-unknown-card = `{ $card }` no es una carta de `{ $game }`
collection-bad-count = el número de copias en la colección va de 0 a { $max }, no { $count }
collection-has-problems = `{ $file }` tiene problemas: línea { $line }, columna { $column }: { $message } — corrige el archivo primero
collection-other-game = es una colección de `{ $game }`
collection-no-parse = no se pudo leer como TOML

## Las páginas del constructor de mazos

ui-title-games = carta — juegos
ui-title-cards = { $game } — cartas
ui-title-deck = { $game } — constructor de mazos
ui-title-organize = carta — veredictos de mazos para organizadores
ui-noscript = Esta página necesita JavaScript.
ui-language = Idioma
ui-unknown-language = El idioma “{ $asked }” no está disponible: la página está en inglés.
ui-no-json = el servidor no envió JSON
ui-server-answered = el servidor respondió { $status }
ui-nav-cards = Cartas
ui-nav-deck = Constructor de mazos
ui-nav-organize = Organizadores
ui-games = Juegos
ui-browse-cards = ver { $count ->
    [one] { $count } carta
   *[other] { $count } cartas
}
ui-build-deck = construir un mazo
ui-no-decks = sin mazos
ui-search = Buscar
ui-search-placeholder = nombre, texto o marca
ui-kind = Tipo
ui-kind-all = todos
ui-any = cualquiera
ui-yes = sí
ui-no = no
ui-range-from = { $field } desde
ui-range-to = { $field } hasta
ui-sort-by = Ordenar por
ui-sort-kind = tipo
ui-sort-name = nombre
ui-shown = { $shown } de { $count ->
    [one] { $count } carta
   *[other] { $count } cartas
}
ui-pool-label = Cartas
ui-deck-label = El mazo
ui-skip-deck = Saltar al mazo
ui-verdict-label = Veredicto
ui-checking = Comprobando…
ui-card-dialog = Carta
ui-new-deck = Mazo nuevo
ui-own-rules = Reglas propias de { $game }
ui-undo = Deshacer
ui-redo = Rehacer
ui-deck-code = Código del mazo
ui-deck-code-label = Código del mazo:
ui-share-link = enlace para compartir
ui-import-placeholder = pega un código de mazo
ui-import-label = Código de mazo a importar
ui-import = Importar
ui-file-placeholder = nombre del archivo (a partir del nombre del mazo)
ui-file-label = Nombre del archivo a guardar
ui-save-to = Guardar en { $folder }/
ui-replace = Reemplazar
ui-share = Compartir
ui-filters = Filtros
ui-changed-since = Cambió desde
ui-since-none = ninguna versión
ui-changed-mark = cambió en { $version }
ui-history = Historial (ahora { $version })
ui-history-was = antes: { $values }
ui-times-help = copias por cada añadido, hasta el límite de copias
ui-add-times = Añadir ×
ui-find-cards = Buscar cartas
ui-your-deck = Tu mazo
ui-name = Nombre
ui-format = Formato
ui-at-limit = { $card } tiene { $count ->
    [one] { $count } copia
   *[other] { $count } copias
}, su límite
ui-close = Cerrar
ui-close-card = Cerrar { $card }
ui-would-break = rompería: { $rules }
ui-add-to = Añadir { $card } a { $zone }
ui-add-to-blocked = Añadir { $card } a { $zone } (rompería una regla)
ui-cards = { $count ->
    [one] { $count } carta
   *[other] { $count } cartas
}
ui-empty-zone = vacío: añade { $kinds }
ui-breaks = rompe: { $rules }
ui-breaks-sr = (rompe { $rules })
ui-one-less = Una menos de { $card }
ui-one-more = Una más de { $card }
ui-legal = Legal
ui-illegal = Ilegal
ui-rules-broken = { $count ->
    [one] { $count } regla rota
   *[other] { $count } reglas rotas
}
ui-all-hold = Se cumplen todas las reglas de { $game }.
ui-has-requires = tiene { $actual }; exige { $expected }
ui-rulebook = reglamento: { $source }
ui-cards-involved = cartas: { $cards }
ui-chart-title = Lo que limitan las reglas
ui-not-judged = Sin juzgar: { $why }
ui-out-of-date = Desactualizado
ui-outdated-note = El servidor no respondió ({ $why }): este veredicto es de un mazo anterior. Reintentando…
ui-imported = importado
ui-not-imported = no importado: el servidor no respondió ({ $why })
ui-saving = guardando…
ui-saved-as = guardado como { $file }
ui-not-saved = no guardado: el servidor no respondió ({ $why }); inténtalo de nuevo
ui-deck-list = Lista del mazo
ui-list-label = Una lista en texto (o un código, o un enlace):
ui-list-placeholder = pega una lista (líneas “3 Nombre de Carta” bajo los títulos de las zonas) o un código de mazo
ui-list-by = nombrar las cartas por
ui-by-name = por nombre
ui-by-id = por id
ui-player = Jugador
ui-player-placeholder = jugador (para la lista de torneo)
ui-import-list = Importar lista
ui-export-list = Exportar lista
ui-printable = Lista de torneo para imprimir
ui-reading-list = leyendo la lista…
ui-list-problems = no importado: { $count ->
    [one] { $count } problema
   *[other] { $count } problemas
} en la lista
ui-use-suggestion = Usar “{ $suggestion }”
ui-replace-at = Usar “{ $suggestion }” en lugar de { $found } en la línea { $line }
ui-list-changed = la lista cambió: impórtala de nuevo
ui-line-column = línea { $line }, columna { $column }: { $message }
ui-list-exported = el mazo como lista: cópiala del cuadro
ui-no-list = sin lista: el servidor no respondió ({ $why })
ui-no-decklist = sin lista de torneo: el mazo no tiene código hasta que el servidor lo juzga
ui-organize-title = Veredictos de mazos para organizadores
ui-organize-intro = Pega códigos de mazo o enlaces, uno por línea (“Jugador: CÓDIGO” da el nombre del jugador), y/o elige archivos de mazo (.toml; el player = “…” de un archivo da el nombre del jugador). Cada mazo se juzga por las reglas de su juego, o por el juego y el formato del evento, cuando se eligen.
ui-codes-label = códigos de mazo, uno por línea
ui-codes-placeholder = Ana Lima: <código del mazo>
ui-files-label = archivos de mazo
ui-event-game = Juego del evento
ui-any-game = cualquier juego
ui-game-own-rules = las reglas propias del juego
ui-judge = Juzgar los mazos
ui-legal-of = { $legal } de { $count ->
    [one] { $count } mazo legal
   *[other] { $count } mazos legales
}
ui-download-csv = descargar CSV
ui-col-source = Origen
ui-col-player = Jugador
ui-col-game = Juego
ui-col-deck = Mazo
ui-col-format = Formato
ui-col-verdict = Veredicto
ui-col-cards = Cartas
ui-col-errors = Errores
ui-col-warnings = Avisos
ui-col-same = Mismo mazo que
ui-verdict-legal = legal
ui-verdict-illegal = ilegal
ui-verdict-invalid = no es un mazo
ui-not-judged-decks = sin juzgar: el servidor no respondió ({ $why })

## El panel de prueba (play.js): mano de ejemplo, probabilidades de robo, curva

ui-play-title = Prueba de juego
ui-play-declared = Mano inicial: { $hand ->
    [one] { $hand } carta
   *[other] { $hand } cartas
} de { $zone }{ $mulligan }; luego, { $draws } por turno, como declara { $game }.
ui-play-declared-mulligan = {" "}(tras un mulligan: { $n })
ui-play-undeclared = { $game } no declara una mano inicial: escribe el tamaño de la mano. Las cartas se roban de { $zone }.
ui-play-hand-size = Tamaño de la mano
ui-play-draws = Cartas robadas en cada turno siguiente
ui-play-hand-title = Mano de ejemplo
ui-play-draw = Robar una mano
ui-play-mulligan = Mulligan
ui-play-mulligans-spent = { $game } permite { $n ->
    [one] un mulligan
   *[other] { $n } mulligans
} por partida: roba una mano nueva para empezar de nuevo.
ui-play-next = Robar la siguiente carta
ui-play-hand-list = Tu mano
ui-play-no-hand = Todavía no se ha robado ninguna mano.
ui-play-new-hand = Nueva mano de { $n }, { $left ->
    [one] queda { $left }
   *[other] quedan { $left }
} en { $zone }: { $cards }.
ui-play-after-mulligan = Mulligan { $m }: una mano de { $n }, { $left ->
    [one] queda { $left }
   *[other] quedan { $left }
} en { $zone }: { $cards }.
ui-play-drew = Robaste { $card }: { $n } en la mano, { $left ->
    [one] queda { $left }
   *[other] quedan { $left }
} en { $zone }.
ui-play-empty-zone = { $zone } está vacío: añade cartas para robar una mano.
ui-play-no-more = No quedan cartas para robar en { $zone }.
ui-play-need-hand = Escribe primero el tamaño de la mano.
ui-play-changed = El mazo cambió: roba una mano nueva.
ui-play-odds-title = Probabilidades de robo
ui-play-group = Grupo
ui-play-at-least = Al menos
ui-play-by-turn = Hasta el turno
ui-play-kinds = Tipos
ui-play-flags = Marcas
ui-play-cards-in = Cartas de { $zone }
ui-play-flag-set = { $title }: sí
ui-play-odds = { $p } de robar al menos { $k } × { $group } hasta el turno { $t }: { $seen } cartas vistas de las { $deck } de { $zone }, { $count } de ellas { $group }.
ui-play-odds-need = Escribe un número entero en cada campo.
ui-play-odds-failed = Sin probabilidades: { $why }
ui-play-curve-title = Curva
ui-play-curve-field = Campo
ui-play-curve-of = Cartas de { $zone } por { $field }
ui-play-cards = cartas
ui-play-none = ninguno
ui-play-no-curve = No hay ningún campo entero que mostrar.

## La colección del jugador (collection.js): solo las que tengo, copias,
## copias que faltan junto al veredicto

ui-owned-only = Solo las que tengo
ui-owned-edit = Editar mi colección
ui-owned-count = { $count } en tu colección
ui-owned-group = Copias de { $card } en tu colección
ui-owned-more = Una copia más de { $card } en tu colección
ui-owned-less = Una copia menos de { $card } en tu colección
ui-owned-saving = guardando…
ui-owned-saved = guardado en { $file }
ui-owned-not-saved = no guardado: { $why }
ui-owned-no-answer = no guardado: el servidor no respondió ({ $why })
ui-owned-none = todavía no hay colección: el primer número que pongas aquí crea { $file }
ui-owned-from = colección: { $file }
ui-owned-problems = { $file } tiene problemas (corrígelo para editarlo aquí):
ui-owned-problem = línea { $line }, columna { $column }: { $message }
ui-owned-copies = { $count ->
    [one] { $count } copia
   *[other] { $count } copias
}
ui-owned-cards = { $count ->
    [one] { $count } carta
   *[other] { $count } cartas
}
ui-owned-missing-title = Te faltan { $copies } de { $cards } en tu colección
ui-owned-missing-line = { $card }: { $count ->
    [one] falta { $count }
   *[other] faltan { $count }
} (el mazo necesita { $needed }, tienes { $owned })
ui-owned-complete = Tu colección tiene todas las copias que necesita este mazo.
ui-owned-unusable = { $file } no se leyó: { $why }
ui-owned-note = Tener las cartas no es una regla del juego: el veredicto no lo cuenta.
